import { AGENT_TARGETS, HOOK_AGENTS, isHookAgent } from '../../agent-hooks/agent-targets'
import { appendHookRun, type HookRun } from '../../agent-hooks/hook-log'
import { hookAnswer, hookTurn } from '../../agent-hooks/hook-payload'
import type { Runtime } from '../../runtime/runtime'
import { readStdinJson, runCheckpoint } from '../checkpoint-command'

/**
 * `retrace checkpoint begin|end --hook AGENT`, as an agent's hook runs it. A hook must never
 * break the agent: it reads the agent's own input from stdin, prints nothing but what the agent
 * expects there (Claude Code and Codex add a hook's output to the model's context; Gemini CLI
 * shows it), always exits 0, and writes what happened — the turn, or the error — to the hook log
 * in the data folder, where `retrace hooks status` and the Connect agents panel read it.
 */
export async function hookCheckpointCommand(options: {
  agent: string
  phase: string
  dataDir: string
  env: NodeJS.ProcessEnv
  open: () => Promise<Runtime>
  answer: (text: string) => void
  stdin?: NodeJS.ReadStream
}): Promise<number> {
  const started = Date.now()
  const phase = options.phase === 'end' ? 'end' : 'begin'
  const run: HookRun = { at: started, agent: options.agent, phase, workspace: null, agentSession: null, sessionId: null, turn: null, changes: null, ms: 0, error: null }
  try {
    if (!isHookAgent(options.agent)) throw new Error(`Unknown --hook agent "${options.agent}": one of ${HOOK_AGENTS.join(', ')}.`)
    if (options.phase !== 'begin' && options.phase !== 'end') throw new Error(`Use "checkpoint begin" or "checkpoint end", not "${options.phase}".`)
    const label = AGENT_TARGETS[options.agent].label
    const turn = hookTurn(options.agent, await readStdinJson(options.stdin), options.env)
    run.workspace = turn.workspace ?? null
    run.agentSession = turn.session ?? null
    if (!turn.workspace) throw new Error(`${label}'s hook input named no workspace folder.`)
    if (!turn.session) throw new Error(`${label}'s hook input named no session.`)
    const result = await runCheckpoint(await options.open(), { phase, workspace: turn.workspace, session: turn.session, hook: turn.prompt ? { prompt: turn.prompt } : {} })
    run.sessionId = result.sessionId
    run.turn = result.turn
    run.changes = result.phase === 'end' ? result.changes : null
  } catch (error) {
    run.error = error instanceof Error ? error.message : String(error)
  }
  run.ms = Date.now() - started
  appendHookRun(options.dataDir, run)
  const answer = isHookAgent(options.agent) ? hookAnswer(options.agent, phase) : null
  if (answer) options.answer(answer)
  return 0
}
