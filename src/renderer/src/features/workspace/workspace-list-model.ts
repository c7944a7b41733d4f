import type { WorkspaceListing } from '../../../../shared/contract'

export type WorkspaceSort = 'activity' | 'sessions' | 'cost' | 'missing'

export const SORT_LABELS: Record<WorkspaceSort, string> = {
  activity: 'Last activity',
  sessions: 'Sessions',
  cost: 'Cost',
  missing: 'Folder missing first'
}

/** A parent folder holding this many listed workspaces or more gets a heading of its own. */
const GROUP_FROM = 3

export interface WorkspaceGroup {
  /** The parent folder, or null for the workspaces whose parent holds too few to group. */
  parent: string | null
  items: WorkspaceListing[]
}

/** The folder a path sits in (`/a/b/c` → `/a/b`; Windows paths too). */
export function parentFolder(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'))
  return cut <= 0 ? path.slice(0, 1) || path : path.slice(0, cut)
}

/** Workspaces whose name or path holds every word of `text` (case-insensitive); hidden ones only if asked. */
export function filterWorkspaces(items: readonly WorkspaceListing[], text: string, showHidden: boolean): WorkspaceListing[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean)
  return items.filter((item) => (showHidden || !item.hidden) && words.every((word) => item.path.toLowerCase().includes(word) || item.name.toLowerCase().includes(word)))
}

const recency = (item: WorkspaceListing) => item.lastActivityAt ?? item.lastOpenedAt ?? 0

/** Sorted by the chosen key, then by activity, then by path, so the order never jumps between reads. */
export function sortWorkspaces(items: readonly WorkspaceListing[], sort: WorkspaceSort): WorkspaceListing[] {
  const key: Record<WorkspaceSort, (item: WorkspaceListing) => number> = {
    activity: recency,
    sessions: (item) => item.sessionCount,
    cost: (item) => item.costUsd ?? -1,
    missing: (item) => (item.folderExists ? 0 : 1)
  }
  const by = key[sort]
  return [...items].sort((a, b) => by(b) - by(a) || recency(b) - recency(a) || a.path.localeCompare(b.path))
}

/**
 * Grouped by parent folder where at least GROUP_FROM share one (`~/work/*`), in the order of each
 * group's first member; the rest stay in one ungrouped run where they fall, in sorted order.
 */
export function groupWorkspaces(items: readonly WorkspaceListing[]): WorkspaceGroup[] {
  const counts = new Map<string, number>()
  for (const item of items) counts.set(parentFolder(item.path), (counts.get(parentFolder(item.path)) ?? 0) + 1)
  const groups: WorkspaceGroup[] = []
  const byParent = new Map<string, WorkspaceGroup>()
  for (const item of items) {
    const parent = parentFolder(item.path)
    if ((counts.get(parent) ?? 0) < GROUP_FROM) {
      const last = groups.at(-1)
      if (last && last.parent === null) last.items.push(item)
      else groups.push({ parent: null, items: [item] })
      continue
    }
    let group = byParent.get(parent)
    if (!group) {
      group = { parent, items: [] }
      byParent.set(parent, group)
      groups.push(group)
    }
    group.items.push(item)
  }
  return groups
}
