import { MarkerType, type Edge } from '@xyflow/react'
import type { TreeEdge, TreeEdgeKind } from './layout'

/** What each kind of edge means, for the legend and for screen readers. */
export const EDGE_LABELS: Record<TreeEdgeKind, string> = {
  fork: 'fork',
  'sub-agent': 'sub-agent',
  successor: 'continued after /clear',
  merge: 'merged back'
}

/**
 * A layout edge as React Flow draws it. Colours and dash patterns live in tree.css (by class),
 * so both themes apply; merges run backwards between their own anchors (see MERGE_ANCHOR), so
 * they do not run over the fork edge going the other way, nor through other cards.
 */
export function toFlowEdge(edge: TreeEdge): Edge {
  // An edge is fully described by its id (kind, ends) and label: reuse the object React Flow already knows.
  const key = `${edge.id}|${edge.label ?? ''}|${edge.vertical ? 'v' : ''}`
  const known = made.get(key)
  if (known) return known
  if (made.size >= 50_000) made.clear()
  const merge = edge.kind === 'merge'
  const flowEdge: Edge = {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    sourceHandle: merge ? 'merge-out' : edge.vertical ? 'up' : 'out',
    targetHandle: merge ? 'merge-in' : edge.vertical ? 'below' : 'in',
    type: edge.vertical ? 'straight' : 'default',
    className: `tree-edge tree-edge-${edge.kind}`,
    markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16, color: `var(--tree-edge-${edge.kind})` },
    ariaLabel: `${EDGE_LABELS[edge.kind]}${edge.label ? ` ${edge.label}` : ''}: from ${edge.source} to ${edge.target}`,
    ...(edge.label ? { label: edge.label, labelBgPadding: [4, 2] as [number, number], labelBgBorderRadius: 4 } : {}),
    focusable: false,
    selectable: false
  }
  made.set(key, flowEdge)
  return flowEdge
}

const made = new Map<string, Edge>()
