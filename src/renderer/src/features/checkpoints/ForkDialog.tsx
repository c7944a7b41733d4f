import { useId, useState, type FormEvent } from 'react'
import { nothingToRewindReason } from './rewind-availability'
import { isRetraceError } from '../../../../shared/contract'
import { errorMessage } from '../../lib/errors'
import { plural } from '../../lib/format'
import { useUiStore } from '../../state/ui-store'
import { Modal } from '../../ui/Modal'
import { Loading } from '../../ui/States'
import { useSessionDetail } from '../sessions'
import { buildChoices, buildConfirmed, buildExcluded, countChanges, type RewindResult } from './plan-model'
import { PlanPreview } from './PlanPreview'
import { useRewindPlan } from './queries'
import { ApplyFailed, ApplyProgress, UncapturedNote } from './RewindDialog'
import { useChoices, useConfirmations, useTicks } from './preview-state'
import { RewindResultView } from './RewindResultView'
import { branchTitle, defaultBranchName } from './branch-model'
import { useForkSession } from './branch-mutations'

/**
 * "Fork from here": a new branch session whose transcript is everything before this turn, named
 * by the user, optionally with the files rewound to that point in the same step (with the same
 * preview as a rewind, so the user sees which files change). On success the branch is selected.
 */
export function ForkDialog({
  sessionId,
  turn,
  onClose,
  onUndoFiles,
  returnFocusTo
}: {
  sessionId: string
  turn: number
  onClose: () => void
  /** After a fork with files: open the undo of that rewind (of the original session). */
  onUndoFiles: (rewindId: string) => void
  returnFocusTo: HTMLElement | null
}) {
  const detail = useSessionDetail(sessionId)
  // No file change from this turn on: the box is left off (see TurnActions).
  const nothingToRewind = nothingToRewindReason(turn, detail.data?.lastChangedTurn)
  const parentTitle = detail.data?.title ?? ''
  const [name, setName] = useState(() => (detail.data ? defaultBranchName(detail.data.title, turn) : ''))
  const [withFiles, setWithFiles] = useState(false)
  const [choices, choose] = useChoices()
  const [confirmed, confirm] = useConfirmations()
  const [excluded, exclude] = useTicks()
  const plan = useRewindPlan({ kind: 'turn', sessionId, turn }, withFiles)
  const fork = useForkSession()
  const selectSession = useUiStore((state) => state.selectSession)
  const [rewound, setRewound] = useState<RewindResult | null>(null)
  const nameId = useId()
  const filesId = useId()

  const checkpoint = detail.data?.checkpoints.find((c) => c.turn === turn)
  const planReady = !withFiles || (plan.data !== undefined && !plan.isFetching && !plan.isError)
  const fileChanges = withFiles && plan.data ? countChanges(plan.data.items, choices, confirmed, excluded) : 0

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!planReady || fork.isPending) return
    fork.mutate(
      { sessionId, turn, title: branchTitle(name), files: withFiles && plan.data ? { token: plan.data.token, choices: buildChoices(plan.data.items, choices), confirmed: buildConfirmed(plan.data.items, confirmed), excluded: buildExcluded(plan.data.items, excluded) } : null },
      {
        onSuccess: (result) => {
          selectSession(result.sessionId)
          // With files, stay open to show what changed on disk (and offer its undo).
          if (result.rewind) setRewound(result.rewind)
          else onClose()
        }
      }
    )
  }
  const previewAgain = () => {
    fork.reset()
    void plan.refetch()
  }

  if (rewound) {
    return (
      <Modal
        title="Branch created, files rewound"
        onClose={onClose}
        returnFocusTo={returnFocusTo}
        testId="fork-dialog"
        wide
        footer={
          <>
            <button type="button" className="button" onClick={() => onUndoFiles(rewound.rewindId)}>
              Undo the file rewind
            </button>
            <button type="button" className="button primary" onClick={onClose} data-autofocus>
              Close
            </button>
          </>
        }
      >
        <p className="dialog-intro">The new branch is selected. The files of the workspace were rewound with it; the original session “{parentTitle}” keeps its transcript.</p>
        <RewindResultView result={rewound} undo={false} turn={turn} historyOf={parentTitle || 'the original session'} />
      </Modal>
    )
  }

  const conflictError = fork.isError && isRetraceError(fork.error) && fork.error.code === 'CONFLICT'
  return (
    <Modal
      title={`Fork from before turn ${turn}`}
      onClose={onClose}
      canClose={!fork.isPending}
      returnFocusTo={returnFocusTo}
      testId="fork-dialog"
      wide={withFiles}
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={fork.isPending}>
            Cancel
          </button>
          {conflictError ? (
            <button type="button" className="button primary" onClick={previewAgain}>
              Preview again
            </button>
          ) : (
            <button type="submit" form={`${nameId}-form`} className="button primary" data-testid="fork-submit" disabled={!planReady || fork.isPending}>
              {fork.isPending ? 'Creating…' : withFiles && fileChanges > 0 ? `Create branch and rewind ${plural(fileChanges, 'file')}` : 'Create branch'}
            </button>
          )}
        </>
      }
    >
      <form id={`${nameId}-form`} className="fork-form" onSubmit={submit}>
        <p className="dialog-intro">
          A new branch session starts with this session’s transcript before turn {turn}
          {checkpoint ? ` (${plural(checkpoint.messagesBefore, 'message')}, ${plural(turn - 1, 'turn')})` : ''}. You can continue it in another direction and
          merge it back later. “{parentTitle || 'This session'}” itself is not changed.
        </p>
        <div className="dialog-field">
          <label htmlFor={nameId}>Branch name</label>
          <input
            id={nameId}
            className="input"
            data-testid="fork-name"
            value={name}
            maxLength={500}
            placeholder={defaultBranchName(parentTitle, turn)}
            onChange={(event) => setName(event.target.value)}
            disabled={fork.isPending}
            data-autofocus
          />
        </div>
        <div className="dialog-check">
          <input id={filesId} type="checkbox" data-testid="fork-with-files" checked={withFiles} onChange={(event) => {
              setWithFiles(event.target.checked)
              // Checked again later: compare with the disk again rather than show an old preview.
              if (event.target.checked && plan.data) void plan.refetch()
            }} disabled={fork.isPending || (nothingToRewind !== null && !withFiles)} />
          <label htmlFor={filesId} title={nothingToRewind ?? undefined}>
            Also rewind files to before this turn{nothingToRewind !== null ? <span className="muted"> (nothing to rewind)</span> : null}
          </label>
        </div>
        {withFiles ? (
          <div className="fork-files">
            <p className="muted">
              The workspace’s files go back to how they were before turn {turn}, together with the fork: both happen or neither. What will change:
            </p>
            <UncapturedNote sessionId={sessionId} fromTurn={turn} />
            {plan.isError ? (
              <div className="dialog-error" role="alert">
                <p className="dialog-error-title">Cannot preview the file rewind</p>
                <p>{errorMessage(plan.error)}</p>
                <button type="button" className="button" onClick={previewAgain}>
                  Try again
                </button>
              </div>
            ) : !plan.data || plan.isFetching ? (
              <Loading label="Comparing the recorded files with the disk…" />
            ) : (
              <PlanPreview items={plan.data.items} root={plan.data.root} choices={choices} onChoose={choose} confirmed={confirmed} onConfirm={confirm} excluded={excluded} onExclude={exclude} target={{ kind: 'turn', sessionId, turn }} token={plan.data.token} />
            )}
          </div>
        ) : null}
        {fork.isPending && withFiles ? <ApplyProgress progress={null} label="Forking and rewinding" /> : null}
        {fork.isError ? (
          conflictError ? (
            <ApplyFailed error={fork.error} />
          ) : (
            <div className="dialog-error" role="alert">
              <p className="dialog-error-title">The branch was not created</p>
              <p>{errorMessage(fork.error)}</p>
            </div>
          )
        ) : null}
      </form>
    </Modal>
  )
}
