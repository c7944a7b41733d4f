import type { z } from 'zod'
import type { ResumableAgentSchema } from '../../shared/contract'
import type { CliCall } from './call'
import type { Output } from './commands'

/**
 * `retrace continue <session-id> [--turn N] [--in claude-code|codex]`: a new session file in the
 * agent's own folder holding the conversation up to turn N (default: the last), and the command
 * that resumes it. No existing file of the agent's is changed.
 */
export async function continueCommand(call: CliCall, options: { sessionId: string; turn: number | undefined; agent: z.infer<typeof ResumableAgentSchema> | undefined; json: boolean; io: Output }): Promise<void> {
  const { agent } = options
  const turn = options.turn ?? (await call('sessions.get', { sessionId: options.sessionId })).turnCount
  const result = await call('sessions.continueInAgent', { sessionId: options.sessionId, turn, ...(agent ? { agent } : {}) })
  if (options.json) return options.io.out(JSON.stringify(result, null, 2))
  const name = result.agent === 'claude-code' ? 'Claude Code' : 'Codex'
  options.io.out(`Wrote a new ${name} session with the conversation up to turn ${turn} (${result.items} messages and tool calls):`)
  options.io.out(`  ${result.path}`)
  options.io.out(`Resume it with:\n  ${result.command}`)
  if (!result.cwdExists) options.io.out(`Note: ${result.cwd} is not on this computer; ${name} resumes a session in the folder it ran in, so put the project back there first.`)
}
