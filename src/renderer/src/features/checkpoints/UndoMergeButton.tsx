import { useState } from 'react'
import { errorMessage } from '../../lib/errors'
import { useUnmergeBranch } from './branch-mutations'

/**
 * "Undo merge" for a merged branch: asks once inline (it deletes the merged copies from the
 * parent), then takes the latest merge back out. The server's refusal (the parent went on
 * after the merge) is shown beside the button.
 */
export function UndoMergeButton({ branchId, parentTitle }: { branchId: string; parentTitle: string }) {
  const unmerge = useUnmergeBranch()
  const [confirming, setConfirming] = useState(false)
  if (confirming) {
    return (
      <span className="undo-merge-confirm" role="group" aria-label="Undo the merge">
        <button
          type="button"
          className="button small primary"
          data-testid="undo-merge-confirm"
          disabled={unmerge.isPending}
          title={`Remove the merged messages from “${parentTitle}” and put its transcript back as it was before`}
          onClick={() => unmerge.mutate({ branchId }, { onSettled: () => setConfirming(false) })}
        >
          {unmerge.isPending ? 'Undoing…' : `Take it out of “${parentTitle}”`}
        </button>
        <button type="button" className="button small" onClick={() => setConfirming(false)} disabled={unmerge.isPending}>
          Keep
        </button>
      </span>
    )
  }
  return (
    <>
      {unmerge.isError ? (
        <span className="undo-merge-error" role="alert" data-testid="undo-merge-error">
          {errorMessage(unmerge.error)}
        </span>
      ) : null}
      <button
        type="button"
        className="button small"
        data-testid="undo-merge"
        title={`Undo the latest merge of this branch into “${parentTitle}”: its messages leave the parent, which is then as it was before`}
        onClick={() => {
          unmerge.reset()
          setConfirming(true)
        }}
      >
        <span aria-hidden="true">↩</span> Undo merge
      </button>
    </>
  )
}
