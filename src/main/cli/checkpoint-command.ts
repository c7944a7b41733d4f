import { parseHookInput, readHookStdin } from '../agent-hooks/hook-input'
import { runCheckpoint, type CheckpointResult, type HookInput, type UntrackedPath } from '../runtime/checkpoint'
import type { Runtime } from '../runtime/runtime'
import type { Output } from './commands'

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
  } else {
    const detail = Object.entries(result.counts).map(([op, n]) => `${n} ${op}`).join(', ')
    options.io.out(`Retrace: turn ${result.turn} captured: ${result.changes === 0 ? 'no file changes' : detail}.`)
  }
  if (result.skipped > 0) options.io.out(untrackedNote(result.skipped, result.untracked))
}

/** "2 paths are not tracked, so a rewind leaves them as they are: a (why); b (why)." A path too long to read is shortened. */
export function untrackedNote(count: number, first: UntrackedPath[]): string {
  const shorten = (path: string) => (path.length > 120 ? `${path.slice(0, 80)}…${path.slice(-30)} (${Buffer.byteLength(path)} bytes)` : path)
  const listed = first.map((item) => `${shorten(item.path)} (${item.reason})`).join('; ')
  const more = count > first.length ? `; and ${count - first.length} more` : ''
  return `Retrace: ${count === 1 ? '1 path is' : `${count} paths are`} not tracked, so a rewind leaves ${count === 1 ? 'it' : 'them'} as ${count === 1 ? 'it is' : 'they are'}: ${listed}${more}.`
}

function withoutPhase(result: CheckpointResult): Omit<CheckpointResult, 'phase'> {
  const { phase: _phase, ...rest } = result
  return rest
}

/** Read a hook's JSON from stdin when it is piped; never wait long, never fail on bad input. */
export async function readHookInput(stdin: NodeJS.ReadStream = process.stdin): Promise<HookInput> {
  const parsed = parseHookInput(await readHookStdin(stdin))
  if (typeof parsed !== 'object' || parsed === null) return {}
  const { session_id: sessionId, cwd, prompt } = parsed as Record<string, unknown>
  return {
    ...(typeof sessionId === 'string' ? { session_id: sessionId } : {}),
    ...(typeof cwd === 'string' ? { cwd } : {}),
    ...(typeof prompt === 'string' ? { prompt } : {})
  }
}
