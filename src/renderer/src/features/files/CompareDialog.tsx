import { useId, useState } from 'react'
import { Modal } from '../../ui/Modal'
import { CompareFiles } from './CompareFiles'

/** "before turn 3", or for turnCount + 1 "after the last turn (turn 7)". */
export function checkpointLabel(turn: number, turnCount: number): string {
  return turn > turnCount ? `after the last turn (turn ${turnCount})` : `before turn ${turn}`
}

/**
 * The files that differ between two checkpoints of a session, and each one's diff: what the
 * session did to the workspace between any two points, not only within one turn.
 */
export function CompareDialog({
  sessionId,
  turnCount,
  initial,
  onClose,
  returnFocusTo
}: {
  sessionId: string
  turnCount: number
  initial: { fromTurn: number; toTurn: number }
  onClose: () => void
  returnFocusTo: HTMLElement | null
}) {
  const [fromTurn, setFrom] = useState(initial.fromTurn)
  const [toTurn, setTo] = useState(initial.toTurn)
  const fromId = useId()
  const toId = useId()
  const points = Array.from({ length: turnCount + 1 }, (_, index) => index + 1)

  const select = (id: string, label: string, value: number, onChange: (turn: number) => void, testId: string) => (
    <span className="compare-point">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="select" data-testid={testId} value={value} onChange={(event) => onChange(Number(event.target.value))}>
        {points.map((turn) => (
          <option key={turn} value={turn}>
            {checkpointLabel(turn, turnCount)}
          </option>
        ))}
      </select>
    </span>
  )

  return (
    <Modal title="Compare checkpoints" onClose={onClose} returnFocusTo={returnFocusTo} testId="compare-dialog" wide footer={<button type="button" className="button primary" onClick={onClose}>Close</button>}>
      <div className="compare-points">
        {select(fromId, 'From', fromTurn, setFrom, 'compare-from')}
        <span aria-hidden="true">→</span>
        {select(toId, 'to', toTurn, setTo, 'compare-to')}
      </div>
      {fromTurn >= toTurn ? (
        <p className="dialog-warning" role="note">
          Choose an earlier checkpoint first and a later one second.
        </p>
      ) : (
        <CompareFiles
          sides={{ sessionId, fromTurn, toTurn }}
          nothing={`No file differs between ${checkpointLabel(fromTurn, turnCount)} and ${checkpointLabel(toTurn, turnCount)}.`}
        />
      )}
    </Modal>
  )
}
