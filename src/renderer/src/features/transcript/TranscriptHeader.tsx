import type { SessionDetail } from '../../../../shared/contract'
import { formatDateTime, formatUsage, plural } from '../../lib/format'
import { useUiStore } from '../../state/ui-store'
import { KindBadge } from '../../ui/KindBadge'
import { RelativeTime } from '../../ui/RelativeTime'
import { ModeToggle } from './ModeToggle'
import { SessionLinks } from './SessionLinks'

export function TranscriptHeader({ detail }: { detail: SessionDetail }) {
  const mode = useUiStore((state) => state.transcriptMode)
  const compacted = detail.contextStartSeq > 0
  return (
    <header className="transcript-header">
      <div className="transcript-title-row">
        <h2 className="transcript-title">{detail.title || 'Untitled session'}</h2>
        <KindBadge kind={detail.kind} />
        <ModeToggle />
      </div>
      <div className="transcript-meta">
        <span>{detail.source}</span>
        {detail.model ? <span className="mono">{detail.model}</span> : null}
        <span title="Created">started {formatDateTime(detail.createdAt)}</span>
        <span>
          updated <RelativeTime at={detail.updatedAt} />
        </span>
        <span>
          {plural(detail.turnCount, 'turn')} · {plural(detail.messageCount, 'message')}
        </span>
        <span className="mono" title="Token totals: input, output, cache read/write, cost">
          {formatUsage(detail.usage)}
        </span>
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
