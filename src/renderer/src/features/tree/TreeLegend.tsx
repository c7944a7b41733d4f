import { EDGE_LABELS } from './flow-edges'
import type { TreeEdgeKind } from './layout'

const KINDS: TreeEdgeKind[] = ['fork', 'sub-agent', 'successor', 'merge']

/** What the edge styles mean (the same classes draw the edges). */
export function TreeLegend() {
  return (
    <ul className="tree-legend" aria-label="Edge kinds">
      {KINDS.map((kind) => (
        <li key={kind} className="tree-legend-item">
          <svg width="28" height="8" aria-hidden="true">
            <line x1="1" y1="4" x2="27" y2="4" className={`tree-legend-line tree-edge-${kind}`} />
          </svg>
          {EDGE_LABELS[kind]}
        </li>
      ))}
    </ul>
  )
}
