import { useMemo } from 'react'
import { layoutTree, type LayoutMerge, type LayoutSession, type TreeLayout } from './layout'

/**
 * The time-axis layout of the sessions shown: a sort and a lane sweep, a millisecond or two for
 * 2,000 sessions (bench:ui measures the whole draw), so it runs during render.
 */
export function useTreeLayout(sessions: readonly LayoutSession[] | undefined, merges: readonly LayoutMerge[] | undefined, collapsed: ReadonlySet<string>): TreeLayout | null {
  return useMemo(() => (sessions ? layoutTree(sessions, merges ?? [], { collapsed }) : null), [sessions, merges, collapsed])
}
