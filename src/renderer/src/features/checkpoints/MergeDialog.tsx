import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { call } from '../../api/client'
import { errorMessage } from '../../lib/errors'
import { plural } from '../../lib/format'
import { useUiStore } from '../../state/ui-store'
import { Modal } from '../../ui/Modal'
import { Loading } from '../../ui/States'
import { mergeIntro, mergeModeEffect, mergeNothingText } from './branch-model'
import { useMergeBranch } from './branch-mutations'

type Mode = 'append' | 'replace'

/**
 * "Merge into parent" for a branch: choose append or replace, read what each does with the
 * numbers from `sessions.planMerge`, merge. Only transcripts are merged; no file changes.
 */
export function MergeDialog({ branchId, workspaceId, onClose, returnFocusTo }: { branchId: string; workspaceId: number; onClose: () => void; returnFocusTo: HTMLElement | null }) {
  // A preview, read once when the dialog opens (not cached: opening again reads again).
  const plan = useQuery({ queryKey: ['merge-plan', branchId], queryFn: () => call('sessions.planMerge', { branchId }), gcTime: 0 })
  const merge = useMergeBranch()
  const [mode, setMode] = useState<Mode>('append')
  const openMessage = useUiStore((state) => state.openMessage)
  const name = useId()

  const nothing = plan.data ? mergeNothingText(plan.data) : null
  let body
  let footer
  if (merge.isSuccess && plan.data) {
    const result = merge.data
    const parentTitle = plan.data.parentTitle
    body = (
      <div className="merge-result" data-testid="merge-result" role="status">
        <p className="rewind-result-title">
          Merged into “{parentTitle}” ({mode}): {plural(result.messageCount, 'message')} added from message #{result.firstSeq}, a marker first.
        </p>
        <p className="muted">This branch is now marked merged; its own transcript is unchanged. A later merge takes only the messages added after this one.</p>
      </div>
    )
    footer = (
      <>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
        <button
          type="button"
          className="button primary"
          data-testid="merge-open-parent"
          data-autofocus
          onClick={() => {
            onClose()
            openMessage({ workspaceId, sessionId: result.parentId, seq: result.firstSeq })
          }}
        >
          Open “{parentTitle}”
        </button>
      </>
    )
  } else if (plan.isError) {
    body = (
      <div className="dialog-error" role="alert">
        <p className="dialog-error-title">Cannot merge this session</p>
        <p>{errorMessage(plan.error)}</p>
      </div>
    )
    footer = (
      <button type="button" className="button primary" onClick={onClose}>
        Close
      </button>
    )
  } else if (!plan.data) {
    body = <Loading label="Reading the branch and its parent…" />
    footer = (
      <button type="button" className="button" onClick={onClose}>
        Cancel
      </button>
    )
  } else {
    const data = plan.data
    body = (
      <>
        <p className="dialog-intro">
          {mergeIntro(data)} Merging joins transcripts only: no file is changed.
        </p>
        {nothing ? (
          <p className="plan-nothing" role="status" data-testid="merge-nothing">
            {nothing}
          </p>
        ) : (
          <fieldset className="merge-modes" disabled={merge.isPending}>
            <legend>How to merge</legend>
            {(['append', 'replace'] as const).map((option) => (
              <label key={option} className={`merge-mode${mode === option ? ' selected' : ''}`}>
                <input type="radio" name={name} value={option} checked={mode === option} onChange={() => setMode(option)} data-testid={`merge-mode-${option}`} />
                <span>
                  <strong>{option === 'append' ? 'Append' : 'Replace'}</strong>
                  <span className="merge-mode-effect">{mergeModeEffect(option, data)}</span>
                </span>
              </label>
            ))}
          </fieldset>
        )}
        {merge.isError ? (
          <div className="dialog-error" role="alert">
            <p className="dialog-error-title">The merge did not happen</p>
            <p>{errorMessage(merge.error)}</p>
          </div>
        ) : null}
      </>
    )
    footer = nothing ? (
      <button type="button" className="button primary" onClick={onClose}>
        Close
      </button>
    ) : (
      <>
        <button type="button" className="button" onClick={onClose} disabled={merge.isPending}>
          Cancel
        </button>
        <button type="button" className="button primary" data-testid="merge-submit" disabled={merge.isPending} onClick={() => merge.mutate({ branchId, mode })}>
          {merge.isPending ? 'Merging…' : `Merge (${mode})`}
        </button>
      </>
    )
  }

  return (
    <Modal title="Merge into parent" onClose={onClose} canClose={!merge.isPending} returnFocusTo={returnFocusTo} testId="merge-dialog" footer={footer}>
      {body}
    </Modal>
  )
}
