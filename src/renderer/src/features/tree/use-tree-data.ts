import { useEffect, useMemo } from 'react'
import type { TreeNode } from '../../../../shared/contract'
import { useDebouncedValue } from '../../lib/use-debounced-value'
import { useSessionFilters } from '../../state/filters-store'
import { useUiStore } from '../../state/ui-store'
import { toFlowNode } from './flow-nodes'
import { countContinuations, countSubAgents } from './layout'
import { useSessionTree } from './queries'
import type { SessionFlowNode } from './SessionNode'
import { filterTree } from './tree-filter'
import { useTreeLayout } from './use-tree-layout'

const NO_NODES: readonly TreeNode[] = []
/** A workspace with more sessions than this opens with every sub-agent folded into its session. */
export const FOLD_FROM = 100

/**
 * The graph's data: the workspace's sessions, less warm-ups (unless shown) and what the filters
 * leave out, laid out on the time axis, as React Flow nodes.
 */
export function useTreeData(workspaceId: number) {
  const tree = useSessionTree(workspaceId)
  const collapsed = useUiStore((state) => state.collapsedSubAgents)
  const showWarmups = useUiStore((state) => state.showWarmups)
  const all = tree.data?.nodes ?? NO_NODES
  // Warm-ups are drawn only on request; a warm-up's parent is one too, or a session kept drawn.
  const unwarmed = useMemo(() => (showWarmups ? all : all.filter((node) => !node.warmup)), [all, showWarmups])
  const filters = useSessionFilters()
  const query = useDebouncedValue(filters.query, 150)
  const { source, from, until, changedFiles, branchesOnly, focusId } = filters
  const filtered = useMemo(
    () => filterTree(unwarmed, { query, source, from, until, changedFiles, branchesOnly, focusId }),
    [unwarmed, query, source, from, until, changedFiles, branchesOnly, focusId]
  )
  const sessions = filtered.nodes
  const layout = useTreeLayout(tree.data ? sessions : undefined, tree.data?.merges, collapsed)

  const byId = useMemo(() => new Map(sessions.map((session) => [session.id, session])), [sessions])
  const subAgents = useMemo(() => countSubAgents(sessions), [sessions])
  const continuations = useMemo(() => countContinuations(sessions), [sessions])
  const foldable = useMemo(() => [...new Set([...subAgents.keys(), ...continuations.keys()])], [subAgents, continuations])
  useFoldLargeOnOpen(workspaceId, all, subAgents)
  const merged = useMemo(() => new Set(tree.data?.merges.flatMap((merge) => [merge.branchId, merge.intoId])), [tree.data])
  const flowNodes = useMemo<SessionFlowNode[]>(
    () =>
      (layout?.nodes ?? []).flatMap((placed) => {
        const session = byId.get(placed.id)
        const facts = {
          subAgents: subAgents.get(placed.id) ?? 0,
          continuations: continuations.get(placed.id) ?? 0,
          collapsed: collapsed.has(placed.id),
          merges: merged.has(placed.id),
          context: filtered.context.has(placed.id)
        }
        return session ? [toFlowNode(session, placed, facts)] : []
      }),
    [layout, byId, subAgents, continuations, collapsed, merged, filtered]
  )
  const sources = useMemo(() => [...new Set(all.map((node) => node.source))].sort(), [all])
  return { tree, all, unwarmed, sessions, byId, layout, flowNodes, foldable, sources, focusId, hiddenWarmups: all.length - unwarmed.length }
}

const foldedOnOpen = new Set<number>()

/** A large workspace opens with its sub-agents folded (once per workspace per run: unfolding is the user's). */
function useFoldLargeOnOpen(workspaceId: number, all: readonly TreeNode[], subAgents: ReadonlyMap<string, number>): void {
  useEffect(() => {
    if (all.length <= FOLD_FROM || foldedOnOpen.has(workspaceId)) return
    foldedOnOpen.add(workspaceId)
    const state = useUiStore.getState()
    if (state.collapsedSubAgents.size === 0 && subAgents.size > 0) state.setCollapsedSubAgents(new Set(subAgents.keys()))
  }, [workspaceId, all, subAgents])
}
