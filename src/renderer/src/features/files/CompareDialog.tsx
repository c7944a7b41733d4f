import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { call } from '../../api/client'
import { filesKeys } from '../../state/query-keys'
import { Modal } from '../../ui/Modal'
import { ErrorState, Loading } from '../../ui/States'
import { LineCounts } from './bits'
import { DiffView } from './DiffView'
import { useFilesUi } from './files-ui'
import { fromServer } from './queries'

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
  const [chosen, setChosen] = useState<string | null>(null)
  const fromId = useId()
  const toId = useId()
  const mode = useFilesUi((state) => state.diffMode)
  const points = Array.from({ length: turnCount + 1 }, (_, index) => index + 1)
  const files = useQuery({
    queryKey: [...filesKeys.session(sessionId), 'between', fromTurn, toTurn],
    queryFn: () => call('changes.between', { sessionId, fromTurn, toTurn }),
    enabled: fromTurn < toTurn
  })
  const items = files.data?.items ?? []
  const selected = items.find((item) => item.pathId === chosen) ?? items[0] ?? null
  const diff = useQuery({
    queryKey: filesKeys.diff(sessionId, selected?.pathId ?? '', fromTurn, toTurn),
    queryFn: () => call('files.diff', { sessionId, pathId: selected?.pathId ?? '', fromTurn, toTurn }),
    select: fromServer,
    enabled: selected !== null
  })

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
      ) : files.isError ? (
        <ErrorState title="Could not compare these checkpoints" error={files.error} onRetry={() => void files.refetch()} />
      ) : !files.data ? (
        <Loading label="Comparing the checkpoints…" />
      ) : items.length === 0 ? (
        <p className="muted" role="status" data-testid="compare-nothing">
          No file differs between {checkpointLabel(fromTurn, turnCount)} and {checkpointLabel(toTurn, turnCount)}.
        </p>
      ) : (
        <div className="compare-body">
          <ul className="compare-files" aria-label="Files that differ">
            {items.map((item) => (
              <li key={item.pathId}>
                <button type="button" className="compare-file" data-testid="compare-file" data-path={item.path} aria-current={item === selected ? 'true' : undefined} onClick={() => setChosen(item.pathId)}>
                  <span className="mono">{item.path}</span>
                  <span className="muted">{item.before === null ? 'new' : item.after === null ? 'deleted' : ''}</span>
                  <LineCounts added={item.added} removed={item.removed} />
                </button>
              </li>
            ))}
          </ul>
          <div className="compare-diff" data-testid="compare-diff">
            {diff.isError ? (
              <ErrorState title="Could not load the diff" error={diff.error} onRetry={() => void diff.refetch()} />
            ) : !diff.data || !selected ? (
              <Loading label={`Loading the diff of ${selected?.path ?? 'the file'}…`} />
            ) : (
              <DiffView data={diff.data} path={selected.path} mode={mode} />
            )}
          </div>
        </div>
      )}
    </Modal>
  )
}
