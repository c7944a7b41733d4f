import { memo } from 'react'
import type { SessionSummary } from '../../../../shared/contract'
import { plural } from '../../lib/format'
import { KindBadge } from '../../ui/KindBadge'
import { MergedBadge } from '../../ui/MergedBadge'
import { RelativeTime } from '../../ui/RelativeTime'
import { SessionNotes, untitled } from '../../ui/SessionNotes'

const MAX_INDENT = 4

interface Props {
  session: SessionSummary
  optionId: string
  selected: boolean
  onSelect: (sessionId: string) => void
}

/** One option of the session listbox; nested sessions (forks, sub-agents) are indented. */
export const SessionRow = memo(function SessionRow({ session, optionId, selected, onSelect }: Props) {
  const depth = Math.min(session.depth, MAX_INDENT)
  return (
    <div
      id={optionId}
      role="option"
      aria-selected={selected}
      data-testid="session-row"
      data-session-id={session.id}
      className={`session-row depth-${depth}${selected ? ' selected' : ''}`}
      onClick={() => onSelect(session.id)}
    >
      <div className="session-row-title">
        {depth > 0 ? (
          <span className="depth-mark" aria-label={`nested ${depth} level${depth > 1 ? 's' : ''} deep`}>
            ↳
          </span>
        ) : null}
        <span className={`session-title${session.title ? '' : ' untitled'}`} title={session.title}>
          {session.title || untitled(session)}
        </span>
      </div>
      <div className={`session-row-meta${session.missingParent ? ' has-missing-parent' : ''}${session.warmup ? ' is-warmup' : ''}${session.merged ? ' is-merged' : ''}`}>
        <KindBadge kind={session.kind} rewoundIn={session.rewoundInAgent ? session.source : null} />
        <MergedBadge merged={session.merged} />
        <SessionNotes session={session} />
        {/* The badge names the agent already. */}
        {session.rewoundInAgent ? null : <span className="source">{session.source}</span>}
        <RelativeTime at={session.updatedAt} />
        <span className="counts">
          {plural(session.turnCount, 'turn')} · {plural(session.messageCount, 'msg')}
        </span>
      </div>
    </div>
  )
})
