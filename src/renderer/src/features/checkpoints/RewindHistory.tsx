import { formatDateTime, plural } from '../../lib/format'
import { Modal } from '../../ui/Modal'
import { EmptyState, ErrorState, Loading } from '../../ui/States'
import { historyRows, STATUS_LABELS } from './history-model'
import { useRewindList } from './queries'

/**
 * A session's rewinds and undos, newest first, with their status; an applied one can be undone
 * (which opens the undo's preview first). Refreshed by `data.changed {rewinds}`.
 */
export function RewindHistory({ sessionId, onClose, onUndo, returnFocusTo }: { sessionId: string; onClose: () => void; onUndo: (rewindId: string) => void; returnFocusTo: HTMLElement | null }) {
  const list = useRewindList(sessionId)
  const rows = historyRows(list.data?.items ?? [])
  return (
    <Modal
      title="Rewinds of this session"
      onClose={onClose}
      returnFocusTo={returnFocusTo}
      testId="rewind-history"
      wide
      footer={
        <button type="button" className="button primary" onClick={onClose}>
          Close
        </button>
      }
    >
      {list.isError ? (
        <ErrorState title="Cannot list the rewinds" error={list.error} onRetry={() => void list.refetch()} />
      ) : !list.data ? (
        <Loading label="Loading rewinds…" />
      ) : rows.length === 0 ? (
        <EmptyState title="No rewinds yet">Use “Rewind files to before this turn” on a turn of the transcript. Every rewind is listed here and can be undone.</EmptyState>
      ) : (
        <table className="history-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">What</th>
              <th scope="col">Operations</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ rewind, label, canUndo }) => (
              <tr key={rewind.id} data-testid="rewind-history-row" data-status={rewind.status}>
                <td className="nowrap">{formatDateTime(rewind.createdAt)}</td>
                <td>{label}</td>
                <td className="nowrap">{plural(rewind.changed, 'file operation')}</td>
                <td>
                  <span className={`rewind-status rewind-status-${rewind.status}`}>{STATUS_LABELS[rewind.status]}</span>
                </td>
                <td className="actions">
                  {canUndo ? (
                    <button type="button" className="button small" onClick={() => onUndo(rewind.id)} aria-label={`Undo: ${label}, ${formatDateTime(rewind.createdAt)}`}>
                      Undo…
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Modal>
  )
}
