import { formatDateTime } from '../lib/format'

/**
 * The agent deleted this session's history file (Claude Code's clean-up after
 * `cleanupPeriodDays`, a file removed by hand): Retrace keeps what it imported.
 */
export function SourceDeletedBadge({ at }: { at: number | null }) {
  if (at === null) return null
  return (
    <span className="badge badge-source-deleted" data-testid="source-deleted-badge" title={`Found deleted ${formatDateTime(at)}. Retrace keeps everything it imported of this session.`}>
      source deleted by the agent
    </span>
  )
}
