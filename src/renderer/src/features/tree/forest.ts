import type { TreeNode } from '../../../../shared/contract'

/** What the layout reads of a session: its links and when it started, nothing that changes per message. */
export type LayoutSession = Pick<TreeNode, 'id' | 'kind' | 'parentId' | 'predecessorId' | 'createdAt'> & Partial<Pick<TreeNode, 'forkTurn' | 'rewoundInAgent'>>

/**
 * The sessions as a forest: each session hangs off one owner (its parent, else its
 * predecessor), children listed oldest first. Everything here is iterative: a chain of
 * 2,000 `/clear` successors must not overflow the stack.
 */
export interface Forest {
  /** Sessions by id (the first of any duplicates), oldest first. */
  byId: ReadonlyMap<string, LayoutSession>
  ordered: readonly LayoutSession[]
  owner: ReadonlyMap<string, string | null>
  children: ReadonlyMap<string, readonly string[]>
  roots: readonly LayoutSession[]
}

export function buildForest(sessions: readonly LayoutSession[]): Forest {
  const byId = new Map<string, LayoutSession>()
  for (const session of sessions) if (!byId.has(session.id)) byId.set(session.id, session)
  const ordered = [...byId.values()].sort((a, b) => a.createdAt - b.createdAt || compare(a.id, b.id))
  const owner = owners(ordered, byId)
  const children = new Map<string, string[]>()
  for (const session of ordered) {
    const parent = owner.get(session.id)
    if (parent) push(children, parent, session.id)
  }
  return { byId, ordered, owner, children, roots: ordered.filter((session) => !owner.get(session.id)) }
}

/** Each session's owner: its parent, else its predecessor, when that is in the set; loops are cut. */
function owners(ordered: readonly LayoutSession[], byId: ReadonlyMap<string, LayoutSession>): Map<string, string | null> {
  const owner = new Map<string, string | null>()
  for (const session of ordered) {
    const link = [session.parentId, session.predecessorId].find((id) => id !== null && id !== session.id && byId.has(id))
    owner.set(session.id, link ?? null)
  }
  // Stored links are untrusted: a chain that comes back on itself becomes a root where it loops.
  const settled = new Set<string>()
  for (const session of ordered) {
    const path = new Set<string>()
    let current: string | null | undefined = session.id
    while (current && !settled.has(current)) {
      if (path.has(current)) {
        owner.set(current, null)
        break
      }
      path.add(current)
      current = owner.get(current)
    }
    for (const id of path) settled.add(id)
  }
  return owner
}

/**
 * Which sessions a collapsed session hides (its sub-agents and continuations, and everything under them), keyed
 * by the visible session that hides them, and how many each one hides.
 */
export function hiddenByCollapse(forest: Forest, collapsed: ReadonlySet<string>): { hiddenBy: Map<string, string>; hiddenCount: Map<string, number> } {
  const hiddenBy = new Map<string, string>()
  const hiddenCount = new Map<string, number>()
  const stack = forest.roots.map((root) => root.id)
  while (stack.length > 0) {
    const id = stack.pop() as string
    const hider = hiddenBy.get(id)
    for (const childId of forest.children.get(id) ?? []) {
      const child = forest.byId.get(childId)
      const collapses = hider === undefined && collapsed.has(id) && child !== undefined && folds(child, id)
      const childHider = hider ?? (collapses ? id : undefined)
      if (childHider !== undefined) {
        hiddenBy.set(childId, childHider)
        hiddenCount.set(childHider, (hiddenCount.get(childHider) ?? 0) + 1)
      }
      stack.push(childId)
    }
  }
  return { hiddenBy, hiddenCount }
}

/** Whether folding `ownerId` hides `child`: its sub-agents and the sessions continuing it after a `/clear` (not its forks). */
function folds(child: LayoutSession, ownerId: string): boolean {
  return (child.kind === 'sub-agent' && child.parentId === ownerId) || (child.predecessorId === ownerId && child.parentId !== ownerId && child.kind !== 'branch')
}

/** Where a session sits in the forest: how deep, and under which root. */
export function depths(forest: Forest): Map<string, { depth: number; root: string }> {
  const placed = new Map<string, { depth: number; root: string }>()
  for (const session of forest.ordered) {
    const path: string[] = []
    let current: string | null | undefined = session.id
    while (current && !placed.has(current)) {
      path.push(current)
      current = forest.owner.get(current)
    }
    let above = current ? placed.get(current) : undefined
    for (let index = path.length - 1; index >= 0; index -= 1) {
      const id = path[index] as string
      above = above ? { depth: above.depth + 1, root: above.root } : { depth: 0, root: id }
      placed.set(id, above)
    }
  }
  return placed
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}
