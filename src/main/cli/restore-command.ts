import { RetraceError, type MethodOutput } from '../../shared/contract'
import type { CliCall } from './call'
import { formatTime, table } from './format'
import { previewAndApply, type ApplyFlags } from './journal-commands'
import { UsageError } from './usage-error'
import { workspaceFile } from './workspace-file'

type HistoryItem = MethodOutput<'files.history'>['items'][number]

export interface RestoreOptions extends ApplyFlags {
  file: string
  workspace: string | undefined
  /** `--change N`: the file as the Nth change of its history (oldest first) left it. */
  change: number | undefined
  /** `--session ID --turn N`: the file as it was before turn N of that session. */
  sessionId: string | undefined
  turn: number | undefined
}

/**
 * `retrace restore FILE`: "Restore this version" of the window's file history, on the command
 * line. Without a version it lists the file's recorded changes, numbered oldest first (numbers
 * stay put as changes are added); `--change N` or `--session ID --turn N` picks one. Then it is
 * a one-file rewind (`rewind.planVersion` / `rewind.applyVersion`): the same preview, conflicts
 * skipped unless `--on-conflict` says otherwise, confirmation, and `retrace undo` puts it back.
 */
export async function restoreCommand(call: CliCall, options: RestoreOptions): Promise<number> {
  const { workspaceId, path } = await restoreTarget(call, options)
  const pathId = Buffer.from(path, 'utf8').toString('base64')
  const history = (await call('files.history', { workspaceId, pathId })).items
  if (options.change === undefined && options.sessionId === undefined) return listVersions(path, history, options)

  const { hash, label } = options.sessionId !== undefined ? await versionBeforeTurn(call, path, pathId, options.sessionId, options.turn) : versionOfChange(path, history, options.change ?? 0)
  const plan = await call('rewind.planVersion', { workspaceId, pathId, hash })
  if (!options.json) options.io.out(`Restore ${path} to ${label}.`)
  return previewAndApply(
    plan,
    options,
    (defaultChoice, confirmed) => call('rewind.applyVersion', { workspaceId, pathId, hash, token: plan.token, defaultChoice, confirmed }),
    'Restore this version?'
  )
}

/** With `--session`, the session's workspace (FILE relative to it); `--workspace`, if also given, must agree. */
async function restoreTarget(call: CliCall, options: RestoreOptions): Promise<{ workspaceId: number; path: string }> {
  if (options.sessionId !== undefined && options.change !== undefined) throw new UsageError('Give --change N or --session ID --turn N, not both.')
  if ((options.sessionId === undefined) !== (options.turn === undefined)) throw new UsageError('--session ID and --turn N go together: the file as it was before turn N of that session.')
  if (options.sessionId === undefined) return workspaceFile(call, options.file, options.workspace)
  const session = await call('sessions.get', { sessionId: options.sessionId })
  const workspace = await call('workspaces.get', { workspaceId: session.workspaceId })
  const named = await workspaceFile(call, options.file, options.workspace ?? workspace.path)
  if (named.workspaceId !== workspace.id) throw new RetraceError('VALIDATION', `Session ${options.sessionId} belongs to ${workspace.path}, not to the workspace --workspace names.`)
  return named
}

/** What `--change N` restores: the version that change left, or for a deletion the one before it (as the window's history). */
function versionOfChange(path: string, history: readonly HistoryItem[], change: number): { hash: string; label: string } {
  const item = history[change - 1]
  if (!item) throw new RetraceError('VALIDATION', `${path} has ${history.length} recorded change${history.length === 1 ? '' : 's'}; there is no change ${change}. Run \`retrace restore ${path}\` to list them.`)
  const version = item.after ?? item.before
  if (!version) throw new RetraceError('VALIDATION', `Change ${change} of ${path} recorded no content to restore.`)
  return { hash: version.hash, label: `${item.after ? 'the file after' : 'the version before the deletion in'} change ${change} (${where(item)})` }
}

/** What `--session ID --turn N` restores: the file at that session's checkpoint before turn N. */
async function versionBeforeTurn(call: CliCall, path: string, pathId: string, sessionId: string, turn: number | undefined): Promise<{ hash: string; label: string }> {
  const at = turn ?? 1
  const diff = await call('files.diff', { sessionId, pathId, fromTurn: at, toTurn: at + 1 })
  if (!diff.before) throw new RetraceError('VALIDATION', `${path} did not exist before turn ${at} of that session: there is no version to restore (\`retrace rewind\` would delete it).`)
  return { hash: diff.before.hash, label: `the file before turn ${at} of session ${sessionId.slice(0, 8)}` }
}

function listVersions(path: string, history: readonly HistoryItem[], options: RestoreOptions): number {
  if (options.json) {
    options.io.out(JSON.stringify({ path, changes: history.map((item, index) => ({ change: index + 1, ...item })) }, null, 2))
    return 0
  }
  if (history.length === 0) throw new RetraceError('NOT_FOUND', `Retrace recorded no change to ${path} in this workspace.`)
  options.io.out(`Recorded changes to ${path}, oldest first. Restore the file as one left it with: retrace restore ${path} --change N`)
  const rows = history.map((item, index) => [
    String(index + 1),
    formatTime(item.createdAt),
    item.sessionId ? item.sessionId.slice(0, 8) : item.observed === 'rewind' ? 'rewind' : '—',
    item.turn === null ? '' : `t${item.turn}`,
    item.op,
    item.after ? `${item.after.size} B` : 'deleted',
    (item.after ?? item.before)?.hash.slice(0, 12) ?? '',
    item.sessionTitle ?? ''
  ])
  options.io.out(table(['#', 'when', 'session', 'turn', 'op', 'size', 'version', 'title'], rows))
  return 0
}

function where(item: HistoryItem): string {
  const session = item.sessionTitle ? `“${item.sessionTitle}”` : item.observed === 'rewind' ? 'a rewind' : 'no session'
  return item.turn === null ? `${session}, ${formatTime(item.createdAt)}` : `turn ${item.turn} of ${session}`
}
