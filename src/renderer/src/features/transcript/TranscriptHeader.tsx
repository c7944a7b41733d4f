import type { ReactNode } from 'react'
import type { SessionDetail } from '../../../../shared/contract'
import { sourceLabel } from '../../../../shared/source-labels'
import { formatDateTime, formatUsage, plural } from '../../lib/format'
import { useUiStore } from '../../state/ui-store'
import { CoverageBadge } from '../../ui/CoverageBadge'
import { KindBadge } from '../../ui/KindBadge'
import { MergedBadge } from '../../ui/MergedBadge'
import { SourceDeletedBadge } from '../../ui/SourceDeletedBadge'
import { RelativeTime } from '../../ui/RelativeTime'
import { mergeUnavailableReason, UndoMergeButton, useDialogStore, useRewindList } from '../checkpoints'
import { ContinueButton } from '../continue'
import { compareWithParentReason } from '../files'
import { HeaderMenu } from '../../ui/HeaderMenu'
import { InternalsToggle } from './InternalsToggle'
import { ModeToggle } from './ModeToggle'
import { SessionLinks } from './SessionLinks'

/**
 * The session's title, facts and links; `tools` (jump to turn, find) sit beside its actions, and
 * `more` (replay, export) in its Session menu with the other less frequent ones.
 */
export function TranscriptHeader({ detail, tools = null, more = null }: { detail: SessionDetail; tools?: ReactNode; more?: ReactNode }) {
  const mode = useUiStore((state) => state.transcriptMode)
  const compacted = detail.contextStartSeq > 0
  return (
    <header className="transcript-header">
      {/* One line at 1280 px: the title gives way (cut short, whole in its tooltip) before the controls wrap below it. */}
      <div className="transcript-title-row">
        <div className="transcript-heading">
          <h2
            className={`transcript-title${detail.titleOrigin === 'derived' ? ' derived' : ''}`}
            data-title-origin={detail.titleOrigin}
            title={detail.titleOrigin === 'derived' ? `${detail.title} (no title of its own: named after what it did)` : detail.title || undefined}
          >
            {detail.title || 'Untitled session'}
          </h2>
          <KindBadge kind={detail.kind} rewoundIn={detail.rewoundInAgent ? detail.source : null} />
          <MergedBadge merged={detail.merged} parentTitle={detail.parent?.title ?? null} />
          <SourceDeletedBadge at={detail.sourceDeletedAt} />
        </div>
        <div className="transcript-controls">
          <SessionActions detail={detail} tools={tools} more={more} />
          <ModeToggle />
        </div>
      </div>
      <div className="transcript-meta">
        <span>{detail.source}</span>
        {detail.agentType ? (
          <span data-testid="agent-type" title="The kind of sub-agent, as the agent's own files name it (Claude Code's agentType)">
            {detail.agentType}
          </span>
        ) : null}
        {detail.sourceSessionId ? (
          <span title="The agent's own id for this session (the retrace command line accepts it too)">
            agent id <span className="mono">{detail.sourceSessionId}</span>
          </span>
        ) : null}
        {detail.model ? <span className="mono">{detail.model}</span> : null}
        <span title="Created">started {formatDateTime(detail.createdAt)}</span>
        <span>
          updated <RelativeTime at={detail.updatedAt} />
        </span>
        <span>
          {plural(detail.turnCount, 'turn')} · {plural(detail.messageCount, 'message')}
        </span>
        <span className="mono" data-testid="session-usage" title={usageTitle(detail)}>
          {formatUsage(detail.usage)}
        </span>
        {/* On the facts' line, not beside the title: a title cut to a few words reads worse than a longer line. */}
        <CoverageBadge coverage={detail.coverage} entries={detail.checkpoints.flatMap((checkpoint) => checkpoint.notCaptured)} />
      </div>
      <SessionLinks detail={detail} />
      {mode === 'context' ? (
        <p className="context-note">
          {compacted
            ? `What the model saw: the transcript from the last compaction (message #${detail.contextStartSeq}) on.`
            : 'This session was never compacted: the model saw the whole transcript.'}
        </p>
      ) : null}
    </header>
  )
}

/**
 * Where the cost comes from: the price table (LiteLLM's published prices of a date), the
 * agent's own record (Cline, Aider, OpenCode… report what they were billed), or both. A
 * branch's counts are its own messages', not its copy of the parent's prefix.
 */
function usageTitle(detail: SessionDetail): string {
  const tokens = `Tokens${detail.kind === 'branch' ? ' this branch used' : ''}: input, output, cache read/write`
  if (detail.usage.costUsd === null) return `${tokens}. No cost: the agent recorded none, and the price table does not know the model.`
  if (detail.costPricedOn === null) return `${tokens}, and the cost as ${sourceLabel(detail.source)} recorded it.`
  return `${tokens}, and the cost from prices of ${detail.costPricedOn} (LiteLLM's published prices; any cost ${sourceLabel(detail.source)} recorded itself is kept as it is).`
}

/**
 * What can be done with the session: the frequent actions as buttons (continue it in its agent;
 * for a branch, merge it back), the rest in the Session menu (replay, export, compare, rewinds)
 * so that the header keeps to one line at 1280 px.
 */
function SessionActions({ detail, tools, more }: { detail: SessionDetail; tools: ReactNode; more: ReactNode }) {
  const open = useDialogStore((state) => state.open)
  const rewinds = useRewindList(detail.id)
  const count = rewinds.data?.items.length ?? 0
  // Merged, with nothing added since: a merge would be refused, so the button says why instead.
  const mergeBlocked = detail.parent ? mergeUnavailableReason(detail.merged, detail.parent.title) : null
  const hasParent = detail.parentId !== null && (detail.kind === 'branch' || detail.kind === 'sub-agent')
  const compareParentBlocked = hasParent ? compareWithParentReason(detail) : null
  return (
    <div className="transcript-actions">
      {tools}
      <ContinueButton detail={detail} />
      {detail.kind === 'branch' && detail.parent ? (
        <button
          type="button"
          className="button small"
          data-testid="merge-into-parent"
          disabled={mergeBlocked !== null}
          title={mergeBlocked ?? `Merge this branch's messages into “${detail.parent.title}” (shows a preview first)`}
          onClick={() => open({ kind: 'merge', branchId: detail.id, workspaceId: detail.workspaceId })}
        >
          <span aria-hidden="true">⤴</span> Merge into parent
        </button>
      ) : null}
      {detail.kind === 'branch' && detail.parent && detail.merged ? <UndoMergeButton key={detail.id} branchId={detail.id} parentTitle={detail.parent.title} /> : null}
      <HeaderMenu
        label={
          <>
            Session <span aria-hidden="true">▾</span>
          </>
        }
        title={`Replay, export, compare checkpoints${hasParent ? ' or with the parent' : ''}, and the file rewinds of this session`}
        testId="session-menu"
      >
        {more}
        {detail.source === 'claude-code' ? <InternalsToggle /> : null}
        {detail.turnCount > 0 ? (
          <button
            type="button"
            className="button small"
            data-testid="open-compare"
            title="The files that differ between any two checkpoints of this session, with their diffs"
            onClick={() => open({ kind: 'compare', sessionId: detail.id, turnCount: detail.turnCount, fromTurn: 1, toTurn: detail.turnCount + 1 })}
          >
            Compare checkpoints…
          </button>
        ) : null}
        {hasParent && detail.parent ? (
          <button
            type="button"
            className="button small"
            data-testid="open-compare-parent"
            disabled={compareParentBlocked !== null}
            title={compareParentBlocked ?? `The files this ${detail.kind === 'branch' ? 'branch' : 'sub-agent'} left differently from “${detail.parent.title}” after the same turn, with their diffs`}
            onClick={() => open({ kind: 'compare-parent', sessionId: detail.id })}
          >
            Compare with parent…
          </button>
        ) : null}
        <button
          type="button"
          className="button small"
          data-testid="open-rewinds"
          aria-label={count > 0 ? `Rewinds: ${count}` : 'Rewinds'}
          title="The file rewinds of this session, with their undo"
          onClick={() => open({ kind: 'history', sessionId: detail.id })}
        >
          <span aria-hidden="true">↶</span> Rewinds{count > 0 ? <span className="count-pill">{count}</span> : null}
        </button>
      </HeaderMenu>
    </div>
  )
}
