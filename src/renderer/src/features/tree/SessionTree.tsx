import '@xyflow/react/dist/style.css'
import { Background, Controls, MiniMap, ReactFlow, type Edge, type NodeMouseHandler, type Viewport } from '@xyflow/react'
import { useCallback, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { TreeNode } from '../../../../shared/contract'
import { plural } from '../../lib/format'
import { useUiStore } from '../../state/ui-store'
import { EmptyState, ErrorState, Loading } from '../../ui/States'
import { AutoFit } from './AutoFit'
import { toFlowEdge } from './flow-edges'
import { toFlowNode } from './flow-nodes'
import { FollowSelection } from './FollowSelection'
import { countSubAgents } from './layout'
import { detailOf } from './lod'
import { useSessionTree } from './queries'
import { SessionNode, type SessionFlowNode } from './SessionNode'
import { TreeToolbar } from './TreeToolbar'
import { SessionFilters, WarmupToggle } from '../sessions'
import { useSessionFilters } from '../../state/filters-store'
import { useDebouncedValue } from '../../lib/use-debounced-value'
import { filterTree } from './tree-filter'
import { FocusBar } from './FocusBar'
import { WhereLooked } from '../sources'
import { useTreeLayout } from './use-tree-layout'

// At module scope: a new object per render would make React Flow remount every node.
const nodeTypes = { session: SessionNode }
/**
 * Fitting leaves the top band to the toolbar and legend (TreeToolbar, two rows) and the bottom
 * band to the minimap (bottom right, MINIMAP_SIZE plus its 15 px margin) and the zoom controls
 * (bottom left), so at a narrow pane (1024 px with a transcript open) none sits on a card.
 */
const FIT_VIEW = { padding: { top: '96px', right: '24px', bottom: '140px', left: '24px' }, maxZoom: 1 } as const
const PRO_OPTIONS = { hideAttribution: true }
/**
 * Above this many nodes only those in view are in the DOM — except zoomed out to specks, where
 * the view holds most of the graph anyway: then every (bare) card stays mounted, so a pan only
 * moves the viewport instead of mounting and unmounting hundreds of cards each frame.
 */
const VISIBLE_ONLY_FROM = 300
/**
 * Up to this many nodes the graph opens fitted, and stays fitted until the user moves it.
 * A larger one opens on its newest trees (top left) at a readable zoom: fitting 2,000 cards
 * would put every one of them in the DOM at once, too small to read; the minimap is the overview.
 */
const FIT_UP_TO = 150
const LARGE_VIEWPORT: Viewport = { x: 24, y: 104, zoom: 0.8 }
const NO_NODES: readonly TreeNode[] = []
const MINIMAP_SIZE = { width: 160, height: 110 }
const NO_EDGES: Edge[] = []

/**
 * Every session of the workspace as one graph: forks, sub-agents, successors and merges.
 * Clicking a node (or Enter on a focused one) opens its transcript; sessions with sub-agents
 * fold them in and out.
 */
export function SessionTree({ workspaceId }: { workspaceId: number }) {
  const tree = useSessionTree(workspaceId)
  const collapsed = useUiStore((state) => state.collapsedSubAgents)
  const selectedId = useUiStore((state) => state.sessionId)
  const theme = useUiStore((state) => state.theme)
  const showWarmups = useUiStore((state) => state.showWarmups)
  const all = tree.data?.nodes ?? NO_NODES
  // Warm-ups are drawn only on request; a warm-up's parent is one too, or a session kept drawn.
  const unwarmed = useMemo(() => (showWarmups ? all : all.filter((node) => !node.warmup)), [all, showWarmups])
  const hiddenWarmups = all.length - unwarmed.length
  const filters = useSessionFilters()
  const query = useDebouncedValue(filters.query, 150)
  const { source, from, until, changedFiles, branchesOnly, focusId } = filters
  const filtered = useMemo(
    () => filterTree(unwarmed, { query, source, from, until, changedFiles, branchesOnly, focusId }),
    [unwarmed, query, source, from, until, changedFiles, branchesOnly, focusId]
  )
  const sessions = filtered.nodes
  const sources = useMemo(() => [...new Set(all.map((node) => node.source))].sort(), [all])
  const { layout, pending } = useTreeLayout(tree.data ? sessions : undefined, tree.data?.merges, collapsed)

  const byId = useMemo(() => new Map(sessions.map((session) => [session.id, session])), [sessions])
  const subAgents = useMemo(() => countSubAgents(sessions), [sessions])
  const withSubAgents = useMemo(() => [...subAgents.keys()], [subAgents])
  const merged = useMemo(() => new Set(tree.data?.merges.flatMap((merge) => [merge.branchId, merge.intoId])), [tree.data])
  const laidOutNodes = useMemo<SessionFlowNode[]>(
    () =>
      (layout?.nodes ?? []).flatMap((placed) => {
        const session = byId.get(placed.id)
        return session ? [toFlowNode(session, placed, subAgents.get(placed.id) ?? 0, collapsed.has(placed.id), merged.has(placed.id), filtered.context.has(placed.id))] : []
      }),
    [layout, byId, subAgents, collapsed, merged, filtered]
  )
  // Selection changes touch one or two nodes; React Flow re-renders only those.
  const nodes = useMemo(() => laidOutNodes.map((node) => (node.id === selectedId ? { ...node, selected: true } : node)), [laidOutNodes, selectedId])
  const allEdges = useMemo(() => (layout?.edges ?? []).map(toFlowEdge), [layout])
  // Zoomed out to specks, edges are sub-pixel: leave them out rather than mount thousands.
  const [tiny, setTiny] = useState(false)
  const edges = tiny ? NO_EDGES : allEdges

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
  // React Flow focuses nodes (Tab) but selects them only in its own state; Enter or Space on
  // a focused node opens it here.
  const onKeyDown = useCallback((event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Enter' && event.key !== ' ') return
    const target = event.target as HTMLElement
    const id = target.classList.contains('react-flow__node') ? target.dataset.id : undefined
    if (!id) return
    event.preventDefault()
    useUiStore.getState().selectSession(id)
  }, [])

  const bar = (
    <>
      <SessionFilters sources={sources} />
      <FocusBar focusId={focusId} title={byId.get(focusId ?? '')?.title} />
    </>
  )
  if (tree.isError) return <ErrorState title="Could not load the session graph" error={tree.error} onRetry={() => void tree.refetch()} />
  if (tree.data && sessions.length === 0) {
    return (
      <>
        {unwarmed.length > 0 ? bar : null}
        <TreeEmpty hiddenWarmups={hiddenWarmups} filtered={unwarmed.length > 0} workspaceId={workspaceId} />
      </>
    )
  }
  if (!layout) return <Loading label={tree.data ? `Laying out ${plural(sessions.length, 'session')}…` : 'Loading the session graph…'} />

  const large = nodes.length > FIT_UP_TO
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
          fitView={!large}
          fitViewOptions={FIT_VIEW}
          defaultViewport={LARGE_VIEWPORT}
          minZoom={0.05}
          maxZoom={1.5}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          edgesFocusable={false}
          deleteKeyCode={null}
          zoomOnDoubleClick={false}
          onlyRenderVisibleElements={nodes.length > VISIBLE_ONLY_FROM && !tiny}
          proOptions={PRO_OPTIONS}
          aria-label="Session graph"
        >
          <Background gap={24} size={1} />
          <TreeToolbar total={sessions.length} pending={pending} withSubAgents={withSubAgents} hiddenWarmups={hiddenWarmups} />
          <Controls showInteractive={false} fitViewOptions={FIT_VIEW} onFitView={onFitView} />
          <MiniMap pannable zoomable style={MINIMAP_SIZE} ariaLabel="Overview of the session graph" nodeColor={minimapColor} nodeStrokeWidth={0} />
          {large ? null : <AutoFit moved={moved} graph={layout} options={FIT_VIEW} />}
          <FollowSelection selectedId={selectedId} />
        </ReactFlow>
      </div>
    </>
  )
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
