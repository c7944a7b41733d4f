import { RetraceError } from '../../shared/contract'
import { TurnCapture } from '../journal/turn-capture'
import type { Runtime } from '../runtime/runtime'
import { openWorkspace } from '../handlers/workspace-handlers'
import type { Output } from './commands'

/** What an agent's hook pipes on stdin (Claude Code: session_id, cwd, prompt on UserPromptSubmit). */
export interface HookInput {
  session_id?: string
  cwd?: string
  prompt?: string
}

export const HOOK_SOURCE = 'hooks'

/** What one begin or end did. */
export type CheckpointResult =
  | { phase: 'begin'; sessionId: string; turn: number; files: number; hashed: number; truncated: boolean; skipped: number }
  | { phase: 'end'; sessionId: string; turn: number; changes: number; counts: Record<string, number> }

/**
 * `retrace checkpoint begin|end`: the two commands an agent's hooks call around a turn.
 * `begin` starts a turn (creating the session on first use) and scans the workspace; `end`
 * scans again, journals every difference — shell-made ones included — and closes the turn.
 */
export async function checkpointCommand(runtime: Runtime, options: { phase: string; workspace: string | undefined; session: string | undefined; hook: HookInput; json: boolean; io: Output }): Promise<void> {
  const result = await runCheckpoint(runtime, options)
  if (options.json) return options.io.out(JSON.stringify(withoutPhase(result)))
  if (result.phase === 'begin') {
    options.io.out(`Retrace: turn ${result.turn} of ${result.sessionId} begun; baseline of ${result.files} files (${result.hashed} read).${result.truncated ? ' The scan hit its file limit: files beyond it are not tracked.' : ''}`)
    return
  }
  const detail = Object.entries(result.counts).map(([op, n]) => `${n} ${op}`).join(', ')
  options.io.out(`Retrace: turn ${result.turn} captured: ${result.changes === 0 ? 'no file changes' : detail}.`)
}

export async function runCheckpoint(runtime: Runtime, options: { phase: string; workspace: string | undefined; session: string | undefined; hook: HookInput }): Promise<CheckpointResult> {
  const workspacePath = options.workspace ?? options.hook.cwd
  const agentSessionId = options.session ?? options.hook.session_id
  if (!workspacePath) throw new RetraceError('VALIDATION', 'Missing --workspace PATH (or a hook input with "cwd").')
  if (!agentSessionId) throw new RetraceError('VALIDATION', 'Missing --session ID (or a hook input with "session_id").')
  if (options.phase !== 'begin' && options.phase !== 'end') throw new RetraceError('VALIDATION', `Use "retrace checkpoint begin" or "retrace checkpoint end", not "${options.phase}".`)
  await runtime.ready
  const workspaceId = openWorkspace(runtime, workspacePath)
  const capture = new TurnCapture(runtime.store, runtime.journal)
  const existing = runtime.store.sessions.bySourceId(workspaceId, HOOK_SOURCE, agentSessionId)?.id

  if (options.phase === 'begin') {
    const writer = existing
      ? runtime.recorder.resume(existing)
      : runtime.recorder.startSession({
          workspaceId,
          source: HOOK_SOURCE,
          sourceSessionId: agentSessionId,
          // Untitled sessions are named after their first prompt; without one, after the agent's id.
          title: options.hook.prompt?.trim() ? '' : `Agent session ${agentSessionId.slice(0, 8)}`
        })
    writer.append({ role: 'user', content: options.hook.prompt?.trim() || 'Turn recorded by `retrace checkpoint begin`.' })
    const scan = await capture.begin(workspaceId)
    return { phase: 'begin', sessionId: writer.id, turn: writer.turn, files: scan.files.size, hashed: scan.stats.filesHashed, truncated: scan.truncated, skipped: scan.skipped.length }
  }

  if (!existing) throw new RetraceError('NOT_FOUND', `No turn was begun for session ${agentSessionId} in ${workspacePath}; run "retrace checkpoint begin" first.`)
  const writer = runtime.recorder.resume(existing)
  if (writer.turn === 0) throw new RetraceError('NOT_FOUND', 'No turn is open; run "retrace checkpoint begin" first.')
  const session = runtime.store.sessions.require(existing)
  const { changes } = await capture.end(workspaceId, { sessionRowId: session.rowId, turn: writer.turn })
  writer.closeTurn()
  runtime.feed.changed(['files', 'checkpoints'], { workspaceId, sessionIds: [existing] })
  const counts = changes.reduce<Record<string, number>>((all, change) => ({ ...all, [change.op]: (all[change.op] ?? 0) + 1 }), {})
  return { phase: 'end', sessionId: existing, turn: writer.turn, changes: changes.length, counts }
}

function withoutPhase(result: CheckpointResult): Omit<CheckpointResult, 'phase'> {
  const { phase: _phase, ...rest } = result
  return rest
}

/** Read a hook's JSON from stdin when it is piped; never wait long, never fail on bad input. */
export async function readHookInput(stdin: NodeJS.ReadStream = process.stdin, timeoutMs = 2000): Promise<HookInput> {
  const parsed = await readStdinJson(stdin, timeoutMs)
  if (typeof parsed !== 'object' || parsed === null) return {}
  const { session_id: sessionId, cwd, prompt } = parsed as Record<string, unknown>
  return {
    ...(typeof sessionId === 'string' ? { session_id: sessionId } : {}),
    ...(typeof cwd === 'string' ? { cwd } : {}),
    ...(typeof prompt === 'string' ? { prompt } : {})
  }
}

/** The JSON value piped on stdin (undefined when none came, or it does not parse). */
export async function readStdinJson(stdin: NodeJS.ReadStream = process.stdin, timeoutMs = 2000): Promise<unknown> {
  if (stdin.isTTY) return undefined
  const chunks: Buffer[] = []
  const text = await new Promise<string>((resolve) => {
    const timer = setTimeout(() => finish(), timeoutMs)
    const finish = () => {
      clearTimeout(timer)
      stdin.pause()
      resolve(Buffer.concat(chunks).toString('utf8'))
    }
    stdin.on('data', (chunk: Buffer) => chunks.push(chunk))
    stdin.once('end', finish)
    stdin.once('error', finish)
  })
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
