import { Position, type NodeHandle } from '@xyflow/react'
import type { TreeNode } from '../../../../shared/contract'
import { plural } from '../../lib/format'
import { MERGE_ANCHOR, NODE_HEIGHT, NODE_WIDTH, type PlacedNode } from './layout'
import type { SessionFlowNode } from './SessionNode'

/**
 * Where SessionNode's anchors sit, declared up front with its size (every card is the same
 * size). React Flow otherwise knows a node only once it has been in the DOM: it mounts every
 * node it has not measured — all 2,000 at once on opening, even those far off screen — and
 * holds fitView back until every node has been measured, which with onlyRenderVisibleElements
 * (or a node object replaced without resizing) never happens.
 */

const HANDLES: NodeHandle[] = [
  { id: 'in', type: 'target', position: Position.Left, x: 0, y: NODE_HEIGHT / 2 },
  { id: 'out', type: 'source', position: Position.Right, x: NODE_WIDTH, y: NODE_HEIGHT / 2 },
  // A continuation in the same lane: out of the top of the older card, into the bottom of the newer one above it.
  { id: 'up', type: 'source', position: Position.Top, x: NODE_WIDTH / 2, y: 0 },
  { id: 'below', type: 'target', position: Position.Bottom, x: NODE_WIDTH / 2, y: NODE_HEIGHT }
]
/** Merge anchors only where a merge edge needs them: two fewer components per card. */
const HANDLES_WITH_MERGES: NodeHandle[] = [
  ...HANDLES,
  { id: 'merge-out', type: 'source', position: Position.Left, x: 0, y: NODE_HEIGHT * MERGE_ANCHOR },
  { id: 'merge-in', type: 'target', position: Position.Right, x: NODE_WIDTH, y: NODE_HEIGHT * MERGE_ANCHOR }
]

/**
 * The last node object made for each session (TanStack Query keeps unchanged sessions the
 * same object across refetches). React Flow redoes its per-node work — and the minimap
 * redraws — only for node objects it has not seen, so folding one session's sub-agents among
 * 2,000 must hand back the very same objects for everything that did not move.
 */
const made = new WeakMap<TreeNode, { key: string; node: SessionFlowNode }>()

export interface NodeFacts {
  subAgents: number
  continuations: number
  collapsed: boolean
  merges: boolean
  /** Drawn as an ancestor of the filters' matches only. */
  context: boolean
}

export function toFlowNode(session: TreeNode, placed: PlacedNode, facts: NodeFacts): SessionFlowNode {
  const { subAgents, continuations, collapsed, merges, context } = facts
  const key = `${placed.x},${placed.y},${placed.width},${placed.height},${placed.hiddenChildren},${subAgents},${continuations},${collapsed},${merges},${context}`
  const previous = made.get(session)
  if (previous?.key === key) return previous.node
  const node: SessionFlowNode = {
    id: session.id,
    type: 'session',
    position: { x: placed.x, y: placed.y },
    width: placed.width,
    height: placed.height,
    measured: { width: placed.width, height: placed.height },
    handles: merges ? HANDLES_WITH_MERGES : HANDLES,
    ariaLabel: `${session.title || 'Untitled session'}: ${session.kind} session from ${session.source}, ${plural(session.turnCount, 'turn')}`,
    data: { session, subAgents, continuations, collapsed, hiddenChildren: placed.hiddenChildren, merges, context }
  }
  made.set(session, { key, node })
  return node
}
