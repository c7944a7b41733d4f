import { formatDateTime } from '../../lib/format'

export function TurnHeader({ turn, at }: { turn: number; at: number | null }) {
  return (
    <div className="turn-header" data-testid="turn-header" role="heading" aria-level={3}>
      <span className="turn-label">{turn === 0 ? 'Before the first prompt' : `Turn ${turn}`}</span>
      {at !== null ? (
        <time className="muted" dateTime={new Date(at).toISOString()}>
          {formatDateTime(at)}
        </time>
      ) : null}
    </div>
  )
}
