import type { TreeNode } from '../../../../shared/contract'
import { matchesFilters, type SessionFilterState } from '../../state/session-filter'
import { buildForest } from './forest'

export interface FilteredTree {
  nodes: TreeNode[]
  /** Sessions drawn only to keep the matches' place in the tree (their ancestors): drawn dimmed. */
  context: ReadonlySet<string>
}

/**
 * What the graph draws of the sessions under the filters: the matches and, so a match never
 * floats loose, its ancestors (as context). With a focus, only the focused session, its
 * ancestors and its descendants are candidates. Order is kept.
 */
export function filterTree(sessions: readonly TreeNode[], filters: SessionFilterState): FilteredTree {
  const forest = buildForest(sessions)
  const focused = filters.focusId !== null && forest.byId.has(filters.focusId) ? lineageOf(filters.focusId, forest) : null
  const matched = new Set<string>()
  for (const session of sessions) {
    if (focused && !focused.has(session.id)) continue
    if (matchesFilters(session, filters)) matched.add(session.id)
  }
  const context = new Set<string>()
  for (const id of matched) {
    for (let owner = forest.owner.get(id); owner && !matched.has(owner) && !context.has(owner); owner = forest.owner.get(owner)) context.add(owner)
  }
  if (matched.size === sessions.length) return { nodes: [...sessions], context }
  return { nodes: sessions.filter((session) => matched.has(session.id) || context.has(session.id)), context }
}

/** A session, every session above it (owner chain) and every session under it. */
export function lineageOf(id: string, forest: ReturnType<typeof buildForest>): Set<string> {
  const lineage = new Set<string>([id])
  for (let owner = forest.owner.get(id); owner && !lineage.has(owner); owner = forest.owner.get(owner)) lineage.add(owner)
  const stack = [id]
  while (stack.length > 0) {
    for (const child of forest.children.get(stack.pop() as string) ?? []) {
      if (lineage.has(child)) continue
      lineage.add(child)
      stack.push(child)
    }
  }
  return lineage
}
