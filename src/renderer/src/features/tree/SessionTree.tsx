import '@xyflow/react/dist/style.css'
import { Background, Controls, MiniMap, ReactFlow, type Edge, type NodeMouseHandler, type Viewport } from '@xyflow/react'
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { plural } from '../../lib/format'
import { useSessionFilters } from '../../state/filters-store'
import { useUiStore } from '../../state/ui-store'
import { EmptyState, ErrorState, Loading } from '../../ui/States'
import { SessionFilters, WarmupToggle } from '../sessions'
import { WhereLooked } from '../sources'
import { AutoFit } from './AutoFit'
import { toFlowEdge } from './flow-edges'
import { FocusBar } from './FocusBar'
import { FollowSelection } from './FollowSelection'
import { detailOf } from './lod'
import { SessionNode, type SessionFlowNode } from './SessionNode'
import { TimeAxis } from './TimeAxis'
import { MOVE_KEYS, moveCursor } from './tree-keys'
import { TreeToolbar } from './TreeToolbar'
import { useTreeData } from './use-tree-data'

// At module scope: a new object per render would make React Flow remount every node.
const nodeTypes = { session: SessionNode }
/**
 * Fitting leaves the top band to the toolbar and legend (TreeToolbar, two rows) and the bottom
 * band to the minimap (bottom right, MINIMAP_SIZE plus its 15 px margin) and the zoom controls
 * (bottom left), so at a narrow pane (1024 px with a transcript open) none sits on a card; the
 * left band is the time axis' labels.
 */
const FIT_VIEW = { padding: { top: '96px', right: '24px', bottom: '140px', left: '128px' }, maxZoom: 1 } as const
const PRO_OPTIONS = { hideAttribution: true }
/**
 * Above this many nodes only those in view are in the DOM — except zoomed out to specks, where
 * the view holds most of the graph anyway: then every (bare) card stays mounted, so a pan only
 * moves the viewport instead of mounting and unmounting hundreds of cards each frame.
 */
const VISIBLE_ONLY_FROM = 300
const OPEN_VIEWPORT: Viewport = { x: 128, y: 96, zoom: 0.85 }
const MINIMAP_SIZE = { width: 160, height: 110 }
const NO_EDGES: Edge[] = []

/**
 * Every session of the workspace on a time axis, newest at the top: forks, sub-agents,
 * continuations and merges as lanes and edges. Clicking a card (or Enter on the cursor) opens its
 * transcript; the arrow keys move the cursor along the tree; the filter bar above narrows it.
 */
export function SessionTree({ workspaceId }: { workspaceId: number }) {
  const data = useTreeData(workspaceId)
  const { tree, layout, sessions, flowNodes } = data
  const selectedId = useUiStore((state) => state.sessionId)
  const theme = useUiStore((state) => state.theme)
  const cursor = useCursor(selectedId)

  // Selection and cursor changes touch one or two nodes; React Flow re-renders only those.
  const nodes = useMemo(
    () => flowNodes.map((node) => (node.id === selectedId || node.id === cursor.id ? { ...node, selected: node.id === selectedId, className: node.id === cursor.id ? 'cursor' : undefined } : node)),
    [flowNodes, selectedId, cursor.id]
  )
  const allEdges = useMemo(() => (layout?.edges ?? []).map(toFlowEdge), [layout])
  // Zoomed out to specks, edges are sub-pixel: leave them out rather than mount thousands.
  const [tiny, setTiny] = useState(false)
  const edges = tiny ? NO_EDGES : allEdges
  const graphSize = useMemo(() => ({ width: layout?.width ?? 0, height: (layout?.nodes.at(-1)?.y ?? 0) + 100 }), [layout])

  // Whether the user has panned or zoomed since the graph was last fit. Programmatic moves carry
  // no event; a click on a node starts a gesture but moves nothing, so only onMove counts.
  const moved = useRef(false)
  const onMove = useCallback((event: MouseEvent | TouchEvent | null, viewport: Viewport) => {
    if (event) moved.current = true
    setTiny(detailOf(viewport.zoom) === 'tiny')
  }, [])
  const onFitView = useCallback(() => {
    moved.current = false
  }, [])
  const onNodeClick = useCallback<NodeMouseHandler<SessionFlowNode>>((_, node) => useUiStore.getState().selectSession(node.id), [])
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.target as HTMLElement).closest('input, select, textarea, button:not(.react-flow__node)')) return
    if (event.key === 'Enter' || event.key === ' ') {
      const focused = (event.target as HTMLElement).closest<HTMLElement>('.react-flow__node')?.dataset.id
      const id = focused ?? cursor.id
      if (!id) return
      event.preventDefault()
      useUiStore.getState().selectSession(id)
      return
    }
    if (!MOVE_KEYS.has(event.key) || !layout) return
    event.preventDefault()
    const next = moveCursor(layout.nodes, data.byId, cursor.id ?? selectedId, event.key)
    if (next) cursor.set(next)
  }

  const bar = (
    <>
      <SessionFilters sources={data.sources} />
      <FocusBar focusId={data.focusId} title={data.byId.get(data.focusId ?? '')?.title} />
    </>
  )
  if (tree.isError) return <ErrorState title="Could not load the session graph" error={tree.error} onRetry={() => void tree.refetch()} />
  if (tree.data && sessions.length === 0) {
    return (
      <>
        {data.unwarmed.length > 0 ? bar : null}
        <TreeEmpty hiddenWarmups={data.hiddenWarmups} filtered={data.unwarmed.length > 0} workspaceId={workspaceId} />
      </>
    )
  }
  if (!layout) return <Loading label={tree.data ? `Laying out ${plural(sessions.length, 'session')}…` : 'Loading the session graph…'} />

  return (
    <>
      {bar}
      <div className="session-tree" data-testid="session-tree" onKeyDown={onKeyDown}>
        <ReactFlow<SessionFlowNode>
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          onNodeClick={onNodeClick}
          onMove={onMove}
          colorMode={theme}
          defaultViewport={OPEN_VIEWPORT}
          minZoom={0.02}
          maxZoom={1.5}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          edgesFocusable={false}
          deleteKeyCode={null}
          zoomOnDoubleClick={false}
          onlyRenderVisibleElements={nodes.length > VISIBLE_ONLY_FROM && !tiny}
          proOptions={PRO_OPTIONS}
          aria-label="Session graph: newest at the top; arrow keys move, Enter opens"
        >
          <Background gap={24} size={1} />
          <TimeAxis ticks={layout.ticks} width={layout.width} />
          <TreeToolbar total={sessions.length} withSubAgents={data.foldable} hiddenWarmups={data.hiddenWarmups} />
          <Controls showInteractive={false} fitViewOptions={FIT_VIEW} onFitView={onFitView} />
          {/* Beside an open transcript the pane is too narrow for an overview that covers no card. */}
          {selectedId ? null : <MiniMap pannable zoomable style={MINIMAP_SIZE} ariaLabel="Overview of the session graph" nodeColor={minimapColor} nodeStrokeWidth={0} />}
          <AutoFit moved={moved} graph={graphSize} options={FIT_VIEW} />
          <FollowSelection selectedId={cursor.id ?? selectedId} />
        </ReactFlow>
      </div>
    </>
  )
}

/**
 * The keyboard's place in the graph: it follows the selection (a click, the list, a link in a
 * transcript) and moves with the arrow keys; Enter opens it. The card under it takes the DOM
 * focus once it is mounted, so screen readers follow.
 */
function useCursor(selectedId: string | null): { id: string | null; set: (id: string) => void } {
  const [id, setId] = useState<string | null>(selectedId)
  const [followed, setFollowed] = useState(selectedId)
  if (followed !== selectedId) {
    setFollowed(selectedId)
    setId(selectedId)
  }
  const moved = useRef(false)
  useEffect(() => {
    if (!moved.current || id === null) return
    moved.current = false
    const focusCard = () => document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`)?.focus({ preventScroll: true })
    // The card may mount only once FollowSelection has brought it into view.
    const frame = requestAnimationFrame(() => requestAnimationFrame(focusCard))
    return () => cancelAnimationFrame(frame)
  }, [id])
  const set = useCallback((next: string) => {
    moved.current = true
    setId(next)
  }, [])
  return { id, set }
}

function TreeEmpty({ hiddenWarmups, filtered, workspaceId }: { hiddenWarmups: number; filtered: boolean; workspaceId: number }) {
  if (filtered) {
    return (
      <EmptyState title="No sessions match">
        <p>Nothing in this workspace matches the filters.</p>
        <button type="button" className="button" onClick={() => useSessionFilters.getState().clear()}>
          Clear filters
        </button>
      </EmptyState>
    )
  }
  return hiddenWarmups > 0 ? (
    <EmptyState title="Only warm-ups here">
      <p>This folder holds no session of yours yet, only Claude Code&apos;s start-up agents.</p>
      <WarmupToggle hidden={hiddenWarmups} />
    </EmptyState>
  ) : (
    <EmptyState title="No sessions in this workspace yet">
      <WhereLooked workspaceId={workspaceId} />
    </EmptyState>
  )
}

function minimapColor(node: SessionFlowNode): string {
  return node.selected ? 'var(--accent)' : `var(--badge-${node.data.session.kind})`
}
