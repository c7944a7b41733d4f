import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { call } from '../../api/client'
import { sessionKeys } from '../../state/query-keys'
import { Modal } from '../../ui/Modal'
import { ErrorState, Loading } from '../../ui/States'
import { CompareFiles } from './CompareFiles'
import { compareWithParentReason, parentComparison } from './compare-parent'

const useDetail = (sessionId: string | null) =>
  useQuery({ queryKey: sessionKeys.detail(sessionId ?? ''), queryFn: () => call('sessions.get', { sessionId: sessionId ?? '' }), enabled: sessionId !== null })

/**
 * "Compare with parent": the files a branch (or sub-agent) left differently from its parent,
 * each side as that session left them after the same turn, with each file's diff (parent →
 * branch). Opened from the branch's header and from its card in the graph.
 */
export function CompareParentDialog({ sessionId, onClose, returnFocusTo }: { sessionId: string; onClose: () => void; returnFocusTo: HTMLElement | null }) {
  const child = useDetail(sessionId)
  const parent = useDetail(child.data?.parent?.id ?? null)
  const [chosenTurn, setTurn] = useState<number | null>(null)
  const turnId = useId()
  const footer = (
    <button type="button" className="button primary" onClick={onClose}>
      Close
    </button>
  )
  const failed = child.error ?? parent.error
  const body = () => {
    if (failed) return <ErrorState title="Could not load the sessions to compare" error={failed} onRetry={() => void (child.isError ? child.refetch() : parent.refetch())} />
    if (!child.data || (child.data.parent && !parent.data)) return <Loading label="Loading the branch and its parent…" />
    const reason = compareWithParentReason(child.data)
    if (reason || !parent.data) return <p className="dialog-warning" role="note">{reason}</p>
    const model = parentComparison(child.data, parent.data)
    const turn = chosenTurn ?? model.initialTurn ?? 1
    const branch = child.data.kind === 'branch' ? 'branch' : 'sub-agent'
    return (
      <>
        <div className="compare-points compare-sessions">
          <span className="compare-point" data-testid="compare-parent-side">
            <span className="muted">From</span> <strong className="compare-session-title" title={parent.data.title}>{parent.data.title || 'Untitled session'}</strong> {model.parentPoint(turn)}
          </span>
          <span className="compare-point">
            <label htmlFor={turnId}>
              to <strong className="compare-session-title" title={child.data.title}>{child.data.title || 'Untitled session'}</strong>
            </label>
            <select id={turnId} className="select" data-testid="compare-turn" value={turn} onChange={(event) => setTurn(Number(event.target.value))}>
              {model.turns.map((candidate) => (
                <option key={candidate} value={candidate}>
                  {candidate === child.data?.turnCount ? `after turn ${candidate} (its last)` : `after turn ${candidate}`}
                </option>
              ))}
            </select>
          </span>
        </div>
        <p className="muted compare-note">Each side is the files as that session left them; the diffs read parent → {branch}.</p>
        <CompareFiles sides={model.sides(turn)} nothing={`The ${branch} left every file as its parent did ${model.parentPoint(turn)}.`} />
      </>
    )
  }
  return (
    <Modal title="Compare with parent" onClose={onClose} returnFocusTo={returnFocusTo} testId="compare-dialog" wide footer={footer}>
      {body()}
    </Modal>
  )
}
