import type { Checkpoint } from '../../../../shared/contract'
import { formatDateTime } from '../../lib/format'
import { TurnFiles } from '../files'
import { TurnActions } from '../checkpoints'
import type { TurnState } from './turn-states'

const STATE_LABELS: Record<TurnState, { label: string; title: (turn: number) => string }> = {
  current: { label: 'current', title: () => 'The latest checkpoint of this session: no rewind went back past it.' },
  rewound: {
    label: 'rewound past',
    title: (turn) => `A rewind of this session put the files back to before this turn or an earlier one, so turn ${turn}’s changes are no longer on disk. Undo it from Session ▾ → Rewinds.`
  },
  invalidated: { label: 'invalidated', title: () => 'This checkpoint’s recorded file states no longer apply, so it cannot be rewound to safely.' }
}

/**
 * A turn's header in the transcript: its number and time, its checkpoint's state, the files it
 * changed (a toggle that expands into the list, below the row), and the turn's actions at the right.
 */
export function TurnHeader({
  sessionId,
  turn,
  at,
  checkpoint,
  state = null,
  lastChangedTurn
}: {
  sessionId: string
  turn: number
  at: number | null
  checkpoint: Checkpoint | null
  state?: TurnState | null
  /** The session's last turn with a journaled file change (undefined while its detail loads). */
  lastChangedTurn?: number | null
}) {
  const shown = state ? STATE_LABELS[state] : null
  return (
    <div className={`turn-header${state ? ` turn-${state}` : ''}`} data-testid="turn-header" data-turn={turn} data-state={state ?? undefined}>
      <h3 className="turn-label">{turn === 0 ? 'Before the first prompt' : `Turn ${turn}`}</h3>
      {at !== null ? (
        <time className="muted" dateTime={new Date(at).toISOString()}>
          {formatDateTime(at)}
        </time>
      ) : null}
      {shown && state ? (
        <span className={`turn-state turn-state-${state}`} data-testid="turn-state" data-state={state} title={shown.title(turn)}>
          {shown.label}
        </span>
      ) : null}
      {turn > 0 ? <TurnFiles sessionId={sessionId} turn={turn} uncapturedCommands={checkpoint?.uncapturedCommands ?? 0} notCaptured={checkpoint?.notCaptured ?? []} /> : null}
      {turn > 0 ? (
        <div className="turn-actions" data-testid="turn-actions">
          <TurnActions sessionId={sessionId} turn={turn} lastChangedTurn={lastChangedTurn} />
        </div>
      ) : null}
    </div>
  )
}
