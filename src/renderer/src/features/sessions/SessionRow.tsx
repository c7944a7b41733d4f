import { memo } from 'react'
import { plural } from '../../lib/format'
import { CoverageBadge } from '../../ui/CoverageBadge'
import { KindBadge } from '../../ui/KindBadge'
import { MergedBadge } from '../../ui/MergedBadge'
import { SourceDeletedBadge } from '../../ui/SourceDeletedBadge'
import { RelativeTime } from '../../ui/RelativeTime'
import { SessionNotes, untitled } from '../../ui/SessionNotes'
import { SourceTag } from '../../ui/SourceTag'
import { continuesText, originText, type SessionTreeRow } from './session-tree-rows'

const MAX_INDENT = 4

interface Props {
  row: SessionTreeRow
  optionId: string
  selected: boolean
  onSelect: (sessionId: string) => void
}

/**
 * One option of the session listbox. Forks and sub-agents are indented under their parent and
 * say which of its turns they start from; a session after a reset says which one it continues.
 */
export const SessionRow = memo(function SessionRow({ row, optionId, selected, onSelect }: Props) {
  const { session } = row
  const depth = Math.min(row.depth, MAX_INDENT)
  const origin = originText(row)
  const continues = continuesText(session)
  return (
    <div
      id={optionId}
      role="option"
      aria-selected={selected}
      data-testid="session-row"
      data-session-id={session.id}
      data-depth={row.depth}
      className={`session-row depth-${depth}${selected ? ' selected' : ''}`}
      onClick={() => onSelect(session.id)}
    >
      <div className="session-row-title">
        {depth > 0 ? (
          <span className="depth-mark" aria-label={`nested ${depth} level${depth > 1 ? 's' : ''} deep`}>
            ↳
          </span>
        ) : null}
        <span
          className={`session-title${session.title ? '' : ' untitled'}${session.titleOrigin === 'derived' ? ' derived' : ''}`}
          data-title-origin={session.titleOrigin}
          title={session.titleOrigin === 'derived' ? `${session.title} (no title of its own: named after what it did)` : session.title}
        >
          {session.title || untitled(session)}
        </span>
        {origin ? (
          <span className="session-relation" data-testid="session-origin" title={`Where it branched off its parent: ${origin}`}>
            {origin}
          </span>
        ) : null}
        {/* A tree's sessions all ran where its top one did: the label is on that row only. */}
        {session.folder && row.depth === 0 ? (
          <span className="session-folder" data-testid="session-folder" title={`Ran in the subfolder ${session.folder}, where it is stored and rewound`}>
            {session.folder}/
          </span>
        ) : null}
        {continues ? (
          <span className="session-relation" data-testid="session-continues" title="It continues an earlier session: a reset in the agent (/clear, /new), or a conversation continued in the agent from Retrace.">
            {continues}
          </span>
        ) : null}
        {/* On the title's line, which gives way (ellipsis) before it: the meta line below is full. */}
        <CoverageBadge coverage={session.coverage} />
      </div>
      <div className={`session-row-meta${session.missingParent ? ' has-missing-parent' : ''}${session.warmup ? ' is-warmup' : ''}${session.merged ? ' is-merged' : ''}`}>
        <KindBadge kind={session.kind} rewoundIn={session.rewoundInAgent ? session.source : null} />
        <MergedBadge merged={session.merged} />
        <SourceDeletedBadge at={session.sourceDeletedAt} />
        <SessionNotes session={session} />
        {/* The badge names the agent already. */}
        {session.rewoundInAgent ? null : <SourceTag className="source" source={session.source} />}
        <RelativeTime at={session.updatedAt} />
        <span className="counts">
          {plural(session.turnCount, 'turn')} · {plural(session.messageCount, 'msg')}
        </span>
      </div>
    </div>
  )
})
