import type { Checkpoint } from '../../../../shared/contract'
import { formatDateTime } from '../../lib/format'
import { TurnFiles } from '../files/TurnFiles'
import { TurnActions } from '../rewind/TurnActions'

/**
 * A turn's header in the transcript: its number and time, the files it changed (a toggle
 * that expands into the list, below the row), and the turn's actions at the right.
 */
export function TurnHeader({ sessionId, turn, at, checkpoint }: { sessionId: string; turn: number; at: number | null; checkpoint: Checkpoint | null }) {
  return (
    <div className="turn-header" data-testid="turn-header" data-turn={turn}>
      <h3 className="turn-label">{turn === 0 ? 'Before the first prompt' : `Turn ${turn}`}</h3>
      {at !== null ? (
        <time className="muted" dateTime={new Date(at).toISOString()}>
          {formatDateTime(at)}
        </time>
      ) : null}
      {turn > 0 ? <TurnFiles sessionId={sessionId} turn={turn} uncapturedCommands={checkpoint?.uncapturedCommands ?? 0} /> : null}
      {turn > 0 ? (
        <div className="turn-actions" data-testid="turn-actions">
          <TurnActions sessionId={sessionId} turn={turn} />
        </div>
      ) : null}
    </div>
  )
}
