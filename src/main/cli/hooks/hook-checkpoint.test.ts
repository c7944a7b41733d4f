import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { AgentConnectionsService } from '../../agent-hooks/connections-service'
import { readHookRuns } from '../../agent-hooks/hook-log'
import { createRuntime, type Runtime } from '../../runtime/runtime'
import { tempDir } from '../../testing/temp-runtime'
import { hookCheckpointCommand } from './hook-checkpoint'
import { formatStatus } from './status-format'

/** The JSON each agent pipes to its prompt hook and its end-of-turn hook (field names from each agent's hook reference). */
function payloads(agent: string, workspace: string, session: string): [unknown, unknown] {
  switch (agent) {
    case 'claude-code':
      return [
        { session_id: session, transcript_path: `/home/u/.claude/projects/x/${session}.jsonl`, cwd: workspace, permission_mode: 'default', hook_event_name: 'UserPromptSubmit', prompt: 'rename the config loader' },
        { session_id: session, transcript_path: `/home/u/.claude/projects/x/${session}.jsonl`, cwd: workspace, permission_mode: 'default', hook_event_name: 'Stop', stop_hook_active: false }
      ]
    case 'gemini':
      return [
        { session_id: session, transcript_path: '/home/u/.gemini/tmp/x/chats/session.json', cwd: workspace, hook_event_name: 'BeforeAgent', timestamp: '2026-11-30T10:00:00.000Z', prompt: 'rename the config loader' },
        { session_id: session, transcript_path: '/home/u/.gemini/tmp/x/chats/session.json', cwd: workspace, hook_event_name: 'AfterAgent', timestamp: '2026-11-30T10:00:09.000Z', prompt: 'rename the config loader', prompt_response: 'Done.', stop_hook_active: false }
      ]
    case 'codex':
      return [
        { session_id: session, turn_id: 'turn-1', transcript_path: null, cwd: workspace, hook_event_name: 'UserPromptSubmit', model: 'gpt-5-codex', permission_mode: 'default', prompt: 'rename the config loader' },
        { session_id: session, turn_id: 'turn-1', transcript_path: null, cwd: workspace, hook_event_name: 'Stop', model: 'gpt-5-codex', permission_mode: 'default', stop_hook_active: false, last_assistant_message: 'Done.' }
      ]
    case 'cursor':
      return [
        { conversation_id: session, generation_id: 'gen-1', model: 'claude-4.5-sonnet', hook_event_name: 'beforeSubmitPrompt', cursor_version: '2.0.77', workspace_roots: [workspace], user_email: null, prompt: 'rename the config loader', attachments: [] },
        { conversation_id: session, generation_id: 'gen-1', model: 'claude-4.5-sonnet', hook_event_name: 'stop', cursor_version: '2.0.77', workspace_roots: [workspace], user_email: null, status: 'completed', loop_count: 0 }
      ]
    default:
      return [
        { sessionId: session, timestamp: 1764496800000, cwd: workspace, prompt: 'rename the config loader' },
        { sessionId: session, timestamp: 1764496809000, cwd: workspace, transcriptPath: `/home/u/.copilot/session-state/${session}/events.jsonl`, stopReason: 'end_turn' }
      ]
  }
}

const stdinOf = (value: unknown) => Readable.from([Buffer.from(JSON.stringify(value))]) as unknown as NodeJS.ReadStream

describe('checkpoint begin|end --hook AGENT (what an installed hook runs)', () => {
  const dirs: ReturnType<typeof tempDir>[] = []
  const runtimes: Runtime[] = []
  afterEach(() => {
    runtimes.splice(0).forEach((runtime) => runtime.close())
    dirs.splice(0).forEach((dir) => dir.dispose())
  })

  function setup() {
    const data = tempDir('retrace-data-')
    const workspace = tempDir('retrace-project-')
    dirs.push(data, workspace)
    const open = () => {
      const runtime = createRuntime({ dataDir: data.path, host: { binding: 'web' }, version: '0.0.0-test', env: {}, followImports: false })
      runtimes.push(runtime)
      return Promise.resolve(runtime)
    }
    const hook = async (agent: string, phase: string, input: unknown, env: NodeJS.ProcessEnv = {}) => {
      const answers: string[] = []
      const code = await hookCheckpointCommand({ agent, phase, dataDir: data.path, env, open, answer: (text) => answers.push(text), stdin: stdinOf(input) })
      return { code, answers }
    }
    return { data: data.path, workspace: workspace.path, hook }
  }

  it.each(['claude-code', 'gemini', 'codex', 'cursor', 'copilot'])('%s: reads its own input, answers only what it expects, and journals the turn', async (agent) => {
    const { data, workspace, hook } = setup()
    writeFileSync(join(workspace, 'loader.ts'), 'export const load = 1\n')
    const [begin, end] = payloads(agent, workspace, `${agent}-session-1`)
    const begun = await hook(agent, 'begin', begin)
    expect(begun.code).toBe(0)
    // Claude Code and Codex add a prompt hook's stdout to the model's context: nothing may be printed.
    expect(begun.answers).toEqual(agent === 'cursor' ? ['{"continue":true}'] : [])
    rmSync(join(workspace, 'loader.ts'))
    writeFileSync(join(workspace, 'config-loader.ts'), 'export const load = 2\n')
    const ended = await hook(agent, 'end', end)
    expect(ended).toEqual({ code: 0, answers: agent === 'cursor' ? ['{}'] : [] })
    const runs = readHookRuns(data)
    expect(runs.map((run) => [run.agent, run.phase, run.workspace, run.agentSession, run.turn, run.changes, run.error, run.via])).toEqual([
      [agent, 'begin', workspace, `${agent}-session-1`, 1, null, null, 'hook'],
      [agent, 'end', workspace, `${agent}-session-1`, 1, 2, null, 'hook']
    ])
    const status = new AgentConnectionsService({ dataDir: data, env: { HOME: workspace } }).status().find((connection) => connection.agent === agent)
    expect(status?.lastCapture).toMatchObject({ turn: 1, changes: 2, workspace })
    expect(status?.lastError).toBeNull()
  })

  it('a failing capture exits 0, prints nothing, and the error is logged for status', async () => {
    const { data, workspace, hook } = setup()
    const gone = join(workspace, 'deleted-project')
    const failed = await hook('claude-code', 'begin', { session_id: 's-9', cwd: gone, hook_event_name: 'UserPromptSubmit', prompt: 'hi' })
    expect(failed).toEqual({ code: 0, answers: [] })
    // An end with no begin (hooks installed in the middle of a turn) is an error too, not a failure of the agent's.
    expect(await hook('claude-code', 'end', { session_id: 's-10', cwd: workspace, hook_event_name: 'Stop' })).toEqual({ code: 0, answers: [] })
    expect(await hook('claude-code', 'begin', 'not json at all')).toEqual({ code: 0, answers: [] })
    const runs = readHookRuns(data)
    expect(runs.map((run) => run.error)).toEqual([expect.stringContaining(gone), expect.stringContaining('No turn was begun for session s-10'), "Claude Code's hook input named no workspace folder."])
    const status = new AgentConnectionsService({ dataDir: data, env: { HOME: workspace } }).status().find((connection) => connection.agent === 'claude-code')
    expect(status?.lastError).toMatchObject({ phase: 'begin', error: "Claude Code's hook input named no workspace folder." })
    expect(status?.lastCapture).toBeNull()
  })

  it('takes the project folder Claude Code names in its environment over a cwd the shell moved into', async () => {
    const { data, workspace, hook } = setup()
    const env = { CLAUDE_PROJECT_DIR: workspace }
    await hook('claude-code', 'begin', { session_id: 's-1', cwd: workspace, hook_event_name: 'UserPromptSubmit', prompt: 'go' }, env)
    await hook('claude-code', 'end', { session_id: 's-1', cwd: join(workspace, 'src'), hook_event_name: 'Stop' }, env)
    expect(readHookRuns(data).map((run) => [run.workspace, run.error])).toEqual([
      [workspace, null],
      [workspace, null]
    ])
  })

  it('an unknown agent is logged, not thrown', async () => {
    const { data, hook } = setup()
    expect(await hook('windsurf', 'begin', {})).toEqual({ code: 0, answers: [] })
    expect(readHookRuns(data)[0]?.error).toContain('Unknown --hook agent "windsurf"')
  })

  it('logs how many paths a turn could not track, and status says so (R26)', async () => {
    const { data, workspace, hook } = setup()
    writeFileSync(join(workspace, 'a\\b.txt'), 'a backslash: not a name the journal holds\n')
    const [begin, end] = payloads('claude-code', workspace, 'untracked-session')
    expect((await hook('claude-code', 'begin', begin)).answers).toEqual([]) // still nothing on the agent's stdout
    await hook('claude-code', 'end', end)
    expect(readHookRuns(data).map((run) => [run.phase, run.untracked])).toEqual([
      ['begin', 1],
      ['end', 1]
    ])
    const status = new AgentConnectionsService({ dataDir: data, env: { HOME: workspace } }).status()
    expect(formatStatus(status, workspace)).toContain('; 1 path not tracked (its changes are not recorded)')
  })
})
