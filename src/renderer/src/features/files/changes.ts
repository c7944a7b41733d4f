import type { FileChange, PathRef } from '../../../../shared/contract'
import { plural } from '../../lib/format'

type FileVersion = NonNullable<FileChange['before']>
export type Observed = FileChange['observed']
export type ChangeOp = FileChange['op'] | 'transient' | 'unchanged'

/**
 * One file's net change in a turn. A turn may touch a file several times (two Edit calls, a
 * create then a rename): those entries become one row, from the first entry's "before" to the
 * last one's "after", following renames.
 */
export interface ChangeGroup {
  key: string
  path: string
  pathId: string
  /** The path the file had before the turn, when the turn renamed it. */
  from: PathRef | null
  op: ChangeOp
  before: FileVersion | null
  after: FileVersion | null
  entries: FileChange[]
  /** Line counts; null for binary or very large files, and until a multi-edit file's net diff is known. */
  added: number | null
  removed: number | null
  /** Past the server's line diff bounds: no counts, and the diff shows the two versions side by side. */
  tooManyChanges: boolean
  observed: Observed[]
  /** Part of the change was a rename: the server's per-path diff cannot show it; versions are diffed instead. */
  renamed: boolean
}

export function groupTurnChanges(items: readonly FileChange[]): ChangeGroup[] {
  const groups: { pathId: string; entries: FileChange[] }[] = []
  for (const item of items) {
    const lookFor = item.op === 'rename' && item.from ? item.from.pathId : item.pathId
    const group = groups.find((candidate) => candidate.pathId === lookFor)
    if (group) {
      group.entries.push(item)
      group.pathId = item.pathId
    } else {
      groups.push({ pathId: item.pathId, entries: [item] })
    }
  }
  return groups.map(({ entries }) => toGroup(entries))
}

function toGroup(entries: FileChange[]): ChangeGroup {
  const first = entries[0] as FileChange
  const last = entries.at(-1) as FileChange
  const origin: PathRef = first.op === 'rename' && first.from ? first.from : { path: first.path, pathId: first.pathId }
  const renamed = entries.some((entry) => entry.op === 'rename')
  const moved = origin.pathId !== last.pathId
  const single = entries.length === 1
  return {
    key: String(first.id),
    path: last.path,
    pathId: last.pathId,
    from: moved ? origin : null,
    op: single ? first.op : netOp(first.before, last.after, moved),
    before: first.before,
    after: last.after,
    entries,
    added: single ? first.added : null,
    removed: single ? first.removed : null,
    tooManyChanges: single && first.tooManyChanges,
    observed: [...new Set(entries.map((entry) => entry.observed))],
    renamed
  }
}

function netOp(before: FileVersion | null, after: FileVersion | null, moved: boolean): ChangeOp {
  if (!before && !after) return 'transient'
  if (!before) return 'create'
  if (!after) return 'delete'
  if (moved) return 'rename'
  if (before.hash === after.hash && before.kind === after.kind) return before.mode === after.mode ? 'unchanged' : 'mode'
  return 'modify'
}

export const OP_LABEL: Record<ChangeOp, string> = {
  create: 'created',
  modify: 'modified',
  delete: 'deleted',
  rename: 'renamed',
  mode: 'mode changed',
  transient: 'created and deleted',
  unchanged: 'unchanged'
}

export const OBSERVED_LABEL: Record<Observed, string> = {
  tool: 'tool',
  scan: 'scan',
  backup: 'backup',
  patch: 'patch',
  rewind: 'rewind'
}

export const OBSERVED_TITLE: Record<Observed, string> = {
  tool: 'Recorded from the agent’s tool call',
  scan: 'Found by a workspace scan before and after the turn',
  backup: 'Rebuilt from the agent’s own file backup',
  patch: 'Rebuilt from the patch the agent applied',
  rewind: 'Written by a Retrace rewind'
}

/** "+12 −4": the sum over rows whose counts are known (binary files have none). */
export function totals(groups: readonly { added: number | null; removed: number | null }[]): { added: number; removed: number } {
  let added = 0
  let removed = 0
  for (const group of groups) {
    added += group.added ?? 0
    removed += group.removed ?? 0
  }
  return { added, removed }
}

export function uncapturedNotice(commands: number): string {
  return `${plural(commands, 'shell command')} in this turn may have changed files Retrace did not see.`
}

/** "12.3 KB": sizes of versions, read at a glance. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit] ?? 'TB'}`
}

export const shortHash = (hash: string): string => hash.slice(0, 8)

/** File permissions as `ls` shows the octal: 0o100644 → "644". */
export const formatMode = (mode: number): string => (mode & 0o7777).toString(8)
