import { Panel } from '@xyflow/react'
import { plural } from '../../lib/format'
import { useUiStore } from '../../state/ui-store'
import { TreeLegend } from './TreeLegend'
import { WarmupToggle } from '../sessions'

/** Over the canvas, top left: how many sessions, fold/unfold every sub-agent and continuation, show warm-ups, and the legend. */
export function TreeToolbar({ total, withSubAgents, hiddenWarmups }: { total: number; withSubAgents: readonly string[]; hiddenWarmups: number }) {
  const anyCollapsed = useUiStore((state) => state.collapsedSubAgents.size > 0)
  const setCollapsed = useUiStore((state) => state.setCollapsedSubAgents)
  return (
    <Panel position="top-left" className="tree-toolbar">
      <div className="tree-actions">
        <span className="tree-count" data-testid="tree-count">
          {plural(total, 'session')}
        </span>
        {withSubAgents.length > 0 ? (
          <>
            <button type="button" className="button" data-testid="tree-collapse-all" onClick={() => setCollapsed(new Set(withSubAgents))}>
              Fold all
            </button>
            <button type="button" className="button" data-testid="tree-expand-all" disabled={!anyCollapsed} onClick={() => setCollapsed(new Set())}>
              Unfold all
            </button>
          </>
        ) : null}
        <WarmupToggle hidden={hiddenWarmups} />
      </div>
      <TreeLegend />
    </Panel>
  )
}
