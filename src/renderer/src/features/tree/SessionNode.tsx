import { Handle, NodeToolbar, Position, useStore, type Node, type NodeProps } from '@xyflow/react'
import { memo, type MouseEvent } from 'react'
import type { TreeNode } from '../../../../shared/contract'
import { formatCost, formatDateTime, plural } from '../../lib/format'
import { useUiStore } from '../../state/ui-store'
import { CoverageBadge } from '../../ui/CoverageBadge'
import { KindBadge } from '../../ui/KindBadge'
import { MergedBadge } from '../../ui/MergedBadge'
import { SessionNotes, untitled } from '../../ui/SessionNotes'
import { SourceTag } from '../../ui/SourceTag'
import { useDialogStore } from '../checkpoints'
import { compareWithParentReason } from '../files'
import { useSessionFilters } from '../../state/filters-store'
import { detailAt } from './lod'
import { MERGE_ANCHOR } from './layout'

export interface SessionNodeData extends Record<string, unknown> {
  session: TreeNode
  /** Sub-agents this session started (it gets a fold toggle when there are any). */
  subAgents: number
  /** Sessions continuing this one after a `/clear` (they fold into it too). */
  continuations: number
  collapsed: boolean
  /** Sessions folded into this one while its sub-agents are collapsed. */
  hiddenChildren: number
  /** Whether a merge edge starts or ends here (only then the anchors underneath exist). */
  merges: boolean
  /** Drawn only as an ancestor of sessions the filters kept: dimmed. */
  context?: boolean
}

export type SessionFlowNode = Node<SessionNodeData, 'session'>

/** The day is on the graph's time axis; the card says the time it started. */
const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' })

/**
 * One session in the graph: kind, source, last activity, title, turns and files changed, and
 * for a session with sub-agents a button that folds them in (showing how many are hidden).
 * Zoomed out, less (see detailAt).
 */
export const SessionNode = memo(function SessionNode({ data, selected }: NodeProps<SessionFlowNode>) {
  const { session, subAgents, continuations, collapsed, hiddenChildren, merges, context } = data
  const detail = useStore(detailAt)
  const toggle = (event: MouseEvent<HTMLButtonElement>) => {
    // The node itself selects on click; the toggle only folds.
    event.stopPropagation()
    useUiStore.getState().toggleSubAgents(session.id)
  }
  const className = `tree-node kind-${session.kind}${selected ? ' selected' : ''}${collapsed && hiddenChildren > 0 ? ' folded' : ''}${context ? ' context' : ''}`
  const actions = selected ? <SelectedActions session={session} /> : null
  if (detail !== 'full') {
    return (
      <div className={`${className} ${detail}`} data-testid="tree-node" data-session-id={session.id} data-kind={session.kind}>
        {actions}
        <Anchors merges={merges} />
        {detail === 'far' ? <div className="tree-node-title">{session.title || untitled(session)}</div> : null}
      </div>
    )
  }
  return (
    <div className={className} data-testid="tree-node" data-session-id={session.id} data-kind={session.kind}>
      {actions}
      <Anchors merges={merges} />
      <div className={`tree-node-meta${session.missingParent ? ' has-missing-parent' : ''}`}>
        <KindBadge kind={session.kind} rewoundIn={session.rewoundInAgent ? session.source : null} />
        <MergedBadge merged={session.merged} />
        <SessionNotes session={session} />
        {/* The badge names the agent already. */}
        {session.rewoundInAgent ? null : <SourceTag className="tree-node-source" source={session.source} />}
        <time className="tree-node-time" dateTime={new Date(session.createdAt).toISOString()} title={`Started ${formatDateTime(session.createdAt)}, last active ${formatDateTime(session.updatedAt)}`}>
          {clock.format(session.createdAt)}
        </time>
      </div>
      <div className={`tree-node-title${session.title ? '' : ' untitled'}`} title={session.title}>
        {session.title || untitled(session)}
      </div>
      <div className="tree-node-stats">
        {session.kind === 'branch' && session.forkTurn !== null ? (
          <>
            <span className="tree-node-fork" data-testid="tree-fork-turn" title="The parent's turn this branch goes another way from">
              from turn {session.forkTurn}
            </span>
            <span aria-hidden="true">·</span>
          </>
        ) : null}
        <span>{plural(session.turnCount, 'turn')}</span>
        <span aria-hidden="true">·</span>
        <span title="Files the session's turns created, changed, renamed or deleted">{plural(session.filesChanged, 'file')} changed</span>
        {session.costUsd !== null ? (
          <>
            <span aria-hidden="true">·</span>
            <span data-testid="tree-node-cost" title="What the session cost (recorded by the agent, or priced by model)">
              {formatCost(session.costUsd)}
            </span>
          </>
        ) : null}
        <CoverageBadge coverage={session.coverage} />
        {subAgents + continuations > 0 ? (
          <button
            type="button"
            className="tree-toggle nodrag nopan"
            data-testid="tree-toggle"
            aria-expanded={!collapsed}
            title={collapsed ? 'Show what is folded into this session' : 'Fold the sub-agents and the sessions continuing this one after /clear into it'}
            onClick={toggle}
          >
            <span aria-hidden="true">{collapsed ? '▸' : '▾'}</span> {collapsed ? `${hiddenChildren} folded` : foldLabel(subAgents, continuations)}
          </button>
        ) : null}
      </div>
    </div>
  )
})

function foldLabel(subAgents: number, continuations: number): string {
  const parts = [subAgents > 0 ? plural(subAgents, 'sub-agent') : '', continuations > 0 ? `${continuations} continued` : '']
  return parts.filter(Boolean).join(' · ')
}

/**
 * Under the selected card, what is done with the session from the graph: a branch or sub-agent
 * compares with its parent (the transcript beside the graph has the rest). Not scaled with the
 * zoom, so it stays readable zoomed out.
 */
function SelectedActions({ session }: { session: TreeNode }) {
  const hasParent = session.parentId !== null && (session.kind === 'branch' || session.kind === 'sub-agent')
  const focused = useSessionFilters((state) => state.focusId === session.id)
  const blocked = hasParent ? compareWithParentReason(session) : null
  return (
    <NodeToolbar isVisible position={Position.Bottom} align="end" offset={6} className="tree-node-actions">
      {focused ? null : (
        <button
          type="button"
          className="button small nodrag nopan"
          data-testid="tree-focus"
          title="Show only this session, the sessions it came from and the ones that came from it"
          onClick={() => useSessionFilters.getState().setFocus(session.id)}
        >
          Focus
        </button>
      )}
      {hasParent ? <button
        type="button"
        className="button small nodrag nopan"
        data-testid="tree-compare-parent"
        disabled={blocked !== null}
        title={blocked ?? `The files this ${session.kind === 'branch' ? 'branch' : 'sub-agent'} left differently from its parent's, with their diffs`}
        onClick={() => useDialogStore.getState().open({ kind: 'compare-parent', sessionId: session.id })}
      >
        <span aria-hidden="true">⇄</span> Compare with parent
      </button> : null}
    </NodeToolbar>
  )
}

/** Where edges attach: in on the left, out on the right, a same-lane continuation top and bottom, merges low on the sides (flow-nodes.ts declares the same). */
const MERGE_HANDLE_STYLE = { top: `${MERGE_ANCHOR * 100}%` }

function Anchors({ merges }: { merges: boolean }) {
  return (
    <>
      <Handle type="target" position={Position.Left} id="in" isConnectable={false} />
      <Handle type="source" position={Position.Right} id="out" isConnectable={false} />
      <Handle type="source" position={Position.Top} id="up" isConnectable={false} />
      <Handle type="target" position={Position.Bottom} id="below" isConnectable={false} />
      {merges ? (
        <>
          <Handle type="source" position={Position.Left} id="merge-out" isConnectable={false} style={MERGE_HANDLE_STYLE} />
          <Handle type="target" position={Position.Right} id="merge-in" isConnectable={false} style={MERGE_HANDLE_STYLE} />
        </>
      ) : null}
    </>
  )
}
