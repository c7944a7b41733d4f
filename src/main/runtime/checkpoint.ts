import { RetraceError } from '../../shared/contract'
import type { ScanResult } from '../journal/scan/types'
import { TurnCapture } from '../journal/turn-capture'
import type { HandlerContext } from '../handlers/context'
import { openWorkspace } from '../handlers/workspace-handlers'

/** What an agent's hook pipes on stdin (Claude Code: session_id, cwd, prompt on UserPromptSubmit). */
export interface HookInput {
  session_id?: string
  cwd?: string
  prompt?: string
}

export const HOOK_SOURCE = 'hooks'

/** A path the scan saw but could not track (too long for the system, unreadable, a name the journal refuses…), and why. */
export interface UntrackedPath {
  path: string
  reason: string
}

/** How many untracked paths a result names; `skipped` counts them all. */
const UNTRACKED_SHOWN = 10

/**
 * What one begin or end did. `skipped` counts the paths the scan could not track, whose
 * changes are therefore not recorded (a rewind leaves them as they are); `untracked` names the
 * first of them.
 */
export type CheckpointResult =
  | { phase: 'begin'; sessionId: string; turn: number; files: number; hashed: number; truncated: boolean; skipped: number; untracked: UntrackedPath[] }
  | { phase: 'end'; sessionId: string; turn: number; changes: number; counts: Record<string, number>; skipped: number; untracked: UntrackedPath[] }

const untrackedOf = (scan: ScanResult): UntrackedPath[] => scan.skipped.slice(0, UNTRACKED_SHOWN).map(({ path, reason }) => ({ path, reason }))

/**
 * One `checkpoint begin` or `end`, wherever it runs: a command's own process, or the running app
 * an agent's hook handed the turn to. `begin` starts a turn (creating the session on first use)
 * and scans the workspace; `end` scans again, journals every difference — shell-made ones
 * included — and closes the turn.
 */
export async function runCheckpoint(ctx: HandlerContext, options: { phase: string; workspace: string | undefined; session: string | undefined; hook: HookInput }): Promise<CheckpointResult> {
  const workspacePath = options.workspace ?? options.hook.cwd
  const agentSessionId = options.session ?? options.hook.session_id
  if (!workspacePath) throw new RetraceError('VALIDATION', 'Missing --workspace PATH (or a hook input with "cwd").')
  if (!agentSessionId) throw new RetraceError('VALIDATION', 'Missing --session ID (or a hook input with "session_id").')
  if (options.phase !== 'begin' && options.phase !== 'end') throw new RetraceError('VALIDATION', `Use "retrace checkpoint begin" or "retrace checkpoint end", not "${options.phase}".`)
  await ctx.ready
  const workspaceId = openWorkspace(ctx, workspacePath)
  const capture = new TurnCapture(ctx.store, ctx.journal)
  const existing = ctx.store.sessions.bySourceId(workspaceId, HOOK_SOURCE, agentSessionId)?.id

  if (options.phase === 'begin') {
    const writer = existing
      ? ctx.recorder.resume(existing)
      : ctx.recorder.startSession({
          workspaceId,
          source: HOOK_SOURCE,
          sourceSessionId: agentSessionId,
          // Untitled sessions are named after their first prompt; without one, after the agent's id.
          title: options.hook.prompt?.trim() ? '' : `Agent session ${agentSessionId.slice(0, 8)}`
        })
    writer.append({ role: 'user', content: options.hook.prompt?.trim() || 'Turn recorded by `retrace checkpoint begin`.' })
    const scan = await capture.begin(workspaceId)
    return { phase: 'begin', sessionId: writer.id, turn: writer.turn, files: scan.files.size, hashed: scan.stats.filesHashed, truncated: scan.truncated, skipped: scan.skipped.length, untracked: untrackedOf(scan) }
  }

  if (!existing) throw new RetraceError('NOT_FOUND', `No turn was begun for session ${agentSessionId} in ${workspacePath}; run "retrace checkpoint begin" first.`)
  const writer = ctx.recorder.resume(existing)
  if (writer.turn === 0) throw new RetraceError('NOT_FOUND', 'No turn is open; run "retrace checkpoint begin" first.')
  const session = ctx.store.sessions.require(existing)
  const { scan, changes } = await capture.end(workspaceId, { sessionRowId: session.rowId, turn: writer.turn })
  writer.closeTurn()
  ctx.feed.changed(['files', 'checkpoints'], { workspaceId, sessionIds: [existing] })
  const counts = changes.reduce<Record<string, number>>((all, change) => ({ ...all, [change.op]: (all[change.op] ?? 0) + 1 }), {})
  return { phase: 'end', sessionId: existing, turn: writer.turn, changes: changes.length, counts, skipped: scan.skipped.length, untracked: untrackedOf(scan) }
}
