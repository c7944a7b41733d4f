import { useEffect, useMemo, useState } from 'react'
import { layoutOneTree, placeTrees, planLayout, type LaidOutTree, type LayoutMerge, type LayoutPlan, type LayoutSession, type TreeLayout } from './layout'

/** Laid-out trees by structure. A tree's key fixes its layout, so entries never go stale. */
const cache = new Map<string, LaidOutTree>()
const CACHE_LIMIT = 20_000
/** Uncached nodes up to which the layout runs at once, during render (thousands take milliseconds). */
const SYNC_NODES = 3_000
/** Work per slice when laying out more than that. */
const SLICE_MS = 12

function laidOut(tree: LayoutPlan['trees'][number]): LaidOutTree {
  let result = cache.get(tree.key)
  if (!result) {
    if (cache.size >= CACHE_LIMIT) cache.clear()
    result = layoutOneTree(tree)
    cache.set(tree.key, result)
  }
  return result
}

function uncachedNodes(plan: LayoutPlan): number {
  return plan.trees.reduce((sum, tree) => (cache.has(tree.key) ? sum : sum + tree.members.length), 0)
}

/**
 * The tree layout, kept off the critical path: a tidy tree costs a few microseconds per node,
 * so up to SYNC_NODES it runs during render; a larger graph would hold up a frame. Each tree's layout is
 * cached by its structure (a new message, a new session elsewhere or a collapse relays out
 * only the tree that changed), and a large uncached layout runs in slices between frames
 * while the previous picture stays on screen.
 */
export function useTreeLayout(
  sessions: readonly LayoutSession[] | undefined,
  merges: readonly LayoutMerge[] | undefined,
  collapsed: ReadonlySet<string>
): { layout: TreeLayout | null; pending: boolean } {
  const plan = useMemo(() => (sessions ? planLayout(sessions, merges ?? [], { collapsed }) : null), [sessions, merges, collapsed])
  const immediate = useMemo(() => (plan && uncachedNodes(plan) <= SYNC_NODES ? placeTrees(plan, plan.trees.map(laidOut)) : null), [plan])
  const [sliced, setSliced] = useState<{ plan: LayoutPlan; layout: TreeLayout } | null>(null)

  useEffect(() => {
    if (!plan || immediate) return
    const results: LaidOutTree[] = []
    let timer: ReturnType<typeof setTimeout> | undefined
    const step = () => {
      const deadline = performance.now() + SLICE_MS
      while (results.length < plan.trees.length && performance.now() < deadline) {
        results.push(laidOut(plan.trees[results.length] as LayoutPlan['trees'][number]))
      }
      if (results.length < plan.trees.length) timer = setTimeout(step, 0)
      else setSliced({ plan, layout: placeTrees(plan, results) })
    }
    timer = setTimeout(step, 0)
    return () => clearTimeout(timer)
  }, [plan, immediate])

  if (immediate) return { layout: immediate, pending: false }
  // While slicing, the last finished picture (if any) stays up.
  return { layout: sliced?.layout ?? null, pending: sliced?.plan !== plan }
}
