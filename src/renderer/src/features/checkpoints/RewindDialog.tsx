import { useEffect, useState } from 'react'
import { isRetraceError } from '../../../../shared/contract'
import { errorMessage } from '../../lib/errors'
import { plural } from '../../lib/format'
import { useUiStore } from '../../state/ui-store'
import { Modal } from '../../ui/Modal'
import { Loading } from '../../ui/States'
import { useSessionDetail } from '../sessions'
import { useApplyPlan } from './mutations'
import { buildChoices, buildConfirmed, buildExcluded, countChanges } from './plan-model'
import { useChoices, useConfirmations, useRewindProgress, useTicks, type Progress } from './preview-state'
import { NotRecordedNote } from './NotRecordedNote'
import { PlanPreview } from './PlanPreview'
import { useRewindPlan, useWatchPlan, type PlanTarget } from './queries'
import { RewindResultView } from './RewindResultView'

/**
 * "Rewind files to before this turn", and the undo of a rewind (itself a rewind): the preview
 * (nothing is written until Apply), then progress, then what changed with an Undo — which
 * leads to the undo's own preview in the same dialog. If the disk changed since the preview,
 * the server writes nothing (CONFLICT) and the user previews again.
 */
export function RewindDialog({ initial, onClose, returnFocusTo }: { initial: PlanTarget; onClose: () => void; returnFocusTo: HTMLElement | null }) {
  const [target, setTarget] = useState<PlanTarget>(initial)
  const [choices, choose, resetChoices] = useChoices()
  const [confirmed, confirm, resetConfirmed] = useConfirmations()
  // Files the user unticked (kept across "Preview again" like the choices; reset for an undo).
  const [excluded, exclude, resetExcluded] = useTicks()
  const plan = useRewindPlan(target)
  const apply = useApplyPlan(target)
  const [progress, resetProgress] = useRewindProgress(target.sessionId)
  const applying = apply.isPending
  // Files that changed while the preview was open (it was refreshed): named above it, and Apply waits a moment.
  const [refreshed, setRefreshed] = useState<string[] | null>(null)
  const [settling, setSettling] = useState(false)
  const previewing = plan.data !== undefined && !plan.isFetching && apply.isIdle
  // After a fork with files the branch is on screen, but the rewind belongs to the original session.
  const selected = useUiStore((state) => state.sessionId)
  const owner = useSessionDetail(target.sessionId)
  const workspaceId = target.kind === 'version' ? target.workspaceId : owner.data?.workspaceId
  useWatchPlan(target, workspaceId, plan.data, plan.dataUpdatedAt, previewing, (paths) => {
    setRefreshed(paths)
    setSettling(true)
  })
  useEffect(() => {
    if (!settling) return
    const timer = setTimeout(() => setSettling(false), REFRESH_SETTLE_MS)
    return () => clearTimeout(timer)
  }, [settling])
  const historyOf = target.sessionId !== selected ? (owner.data?.title ?? 'the original session') : null

  const title = target.kind === 'turn' ? `Rewind files to before turn ${target.turn}` : target.kind === 'version' ? `Restore ${target.path}` : 'Undo a rewind'
  const items = plan.data?.items ?? []
  const changes = countChanges(items, choices, confirmed, excluded)

  const previewAgain = () => {
    setRefreshed(null)
    apply.reset()
    resetProgress()
    void plan.refetch()
  }
  const undo = (rewindId: string) => {
    setRefreshed(null)
    apply.reset()
    resetProgress()
    resetChoices()
    resetConfirmed()
    resetExcluded()
    setTarget({ kind: 'undo', sessionId: target.sessionId, rewindId })
  }
  const run = () => {
    if (!plan.data) return
    resetProgress()
    apply.mutate({ token: plan.data.token, choices: buildChoices(plan.data.items, choices), confirmed: buildConfirmed(plan.data.items, confirmed), excluded: buildExcluded(plan.data.items, excluded) })
  }

  let body
  let footer
  if (apply.isSuccess) {
    body = <RewindResultView result={apply.data} undo={target.kind === 'undo'} turn={target.kind === 'turn' ? target.turn : null} historyOf={historyOf} restoredTo={target.kind === 'version' ? `${target.path} to ${target.label}` : null} />
    footer = (
      <>
        <button type="button" className="button" data-testid="rewind-undo" onClick={() => undo(apply.data.rewindId)}>
          {target.kind === 'undo' ? 'Undo this undo' : 'Undo this rewind'}
        </button>
        <button type="button" className="button primary" onClick={onClose} data-autofocus>
          Close
        </button>
      </>
    )
  } else if (applying) {
    body = <ApplyProgress progress={progress} label={target.kind === 'undo' ? 'Undoing' : 'Rewinding'} />
    footer = (
      <button type="button" className="button" disabled>
        Close
      </button>
    )
  } else if (apply.isError) {
    body = <ApplyFailed error={apply.error} />
    footer = (
      <>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
        <button type="button" className="button primary" data-testid="rewind-replan" onClick={previewAgain} data-autofocus>
          Preview again
        </button>
      </>
    )
  } else if (plan.isError) {
    body = (
      <div className="dialog-error" role="alert">
        <p className="dialog-error-title">Cannot preview this {target.kind === 'undo' ? 'undo' : 'rewind'}</p>
        <p>{errorMessage(plan.error)}</p>
      </div>
    )
    footer = (
      <>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
        {/* A folder that is not here stays missing: trying again would only fail again. */}
        {isRetraceError(plan.error) && plan.error.code === 'PATH_NOT_FOUND' ? null : (
          <button type="button" className="button primary" onClick={previewAgain}>
            Try again
          </button>
        )}
      </>
    )
  } else if (!plan.data || plan.isFetching) {
    body = <Loading label="Comparing the recorded files with the disk…" />
    footer = (
      <button type="button" className="button" onClick={onClose}>
        Cancel
      </button>
    )
  } else {
    body = (
      <>
        <PreviewIntro target={target} />
        {refreshed ? <RefreshedNote paths={refreshed} /> : null}
        <PlanPreview items={items} root={plan.data.root} choices={choices} onChoose={choose} confirmed={confirmed} onConfirm={confirm} excluded={excluded} onExclude={exclude} target={target} token={plan.data.token} undo={target.kind === 'undo'} />
      </>
    )
    const nothing = items.every((item) => item.action === 'none' || item.refused !== null)
    footer = nothing ? (
      <button type="button" className="button primary" onClick={onClose}>
        Close
      </button>
    ) : (
      <>
        {changes === 0 ? <span className="footer-note">Nothing left to apply: every change is a skipped conflict or an unticked file. Choose overwrite or keep both, or tick a file, to change something.</span> : null}
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="button primary" data-testid="rewind-apply" disabled={changes === 0 || settling} onClick={run}>
          {changes === 0 ? 'Nothing to apply' : target.kind === 'undo' ? `Undo: change ${plural(changes, 'file')}` : target.kind === 'version' ? 'Restore this version' : `Rewind ${plural(changes, 'file')}`}
        </button>
      </>
    )
  }

  const step = apply.isSuccess ? 'done' : applying ? 'applying' : apply.isError ? 'failed' : plan.data && !plan.isFetching ? 'preview' : 'loading'
  return (
    <Modal title={title} onClose={onClose} canClose={!applying} focusKey={`${target.kind === 'undo' ? target.rewindId : target.kind}:${step}`} returnFocusTo={returnFocusTo} testId="rewind-dialog" wide footer={footer}>
      {body}
    </Modal>
  )
}

/** After the preview refreshed itself, Apply waits this long: a click aimed at the old preview does not apply the new one. */
const REFRESH_SETTLE_MS = 1200

/** The preview was replaced because the disk changed while it was open: which files, by name. */
function RefreshedNote({ paths }: { paths: string[] }) {
  const named = paths.slice(0, 3).join(', ') + (paths.length > 3 ? ` and ${paths.length - 3} more` : '')
  return (
    <p className="dialog-warning" role="status" data-testid="rewind-refreshed">
      {paths.length > 0 ? <span className="mono">{named}</span> : 'Files'} changed on disk while this preview was open, so it now shows the files as they are. Check it again before you apply.
    </p>
  )
}

/** What the preview is about, and the promise: only recorded files, everything saved first. */
function PreviewIntro({ target }: { target: PlanTarget }) {
  if (target.kind === 'version') {
    return (
      <p className="dialog-intro">
        Puts <span className="mono">{target.path}</span> back as {target.label}. Only this file is touched. If it changed since Retrace last saw it, that shows as a conflict. What it replaces is saved first, so you
        can undo this.
      </p>
    )
  }
  if (target.kind === 'undo') {
    return <p className="dialog-intro">Puts back the files this rewind replaced, as they were just before it. A file changed since the rewind shows as a conflict. An undo is a rewind too, so it can be undone.</p>
  }
  return (
    <>
      <p className="dialog-intro">
        Puts the files this session changed in turn {target.turn} and later back as they were before turn {target.turn}. Only files Retrace recorded are touched; files nobody recorded are left alone. Everything replaced is
        saved first, so you can undo the rewind.
      </p>
      <UncapturedNote sessionId={target.sessionId} fromTurn={target.turn} />
    </>
  )
}

/** What the turns from `fromTurn` on changed that a rewind cannot put back (NotRecordedNote), from the session's checkpoints. */
export function UncapturedNote({ sessionId, fromTurn }: { sessionId: string; fromTurn: number }) {
  const detail = useSessionDetail(sessionId)
  if (!detail.data) return null
  return <NotRecordedNote checkpoints={detail.data.checkpoints} fromTurn={fromTurn} agentKeepsNoContent={detail.data.coverage.agentKeepsNoContent} />
}

export function ApplyProgress({ progress, label }: { progress: Progress | null; label: string }) {
  return (
    <div className="rewind-progress" data-testid="rewind-progress" role="status" aria-live="polite">
      <p>
        {label}… {progress && progress.total > 0 ? `${progress.done} of ${plural(progress.total, 'file operation')}` : 'preparing'}
      </p>
      {progress && progress.total > 0 ? <progress max={progress.total} value={progress.done} aria-label={`${label} files`} /> : <progress aria-label={`${label} files`} />}
      {progress?.path ? <p className="mono muted rewind-progress-path">{progress.path}</p> : null}
      <p className="muted">All or nothing: if anything fails, every file is put back as it was.</p>
    </div>
  )
}

export function ApplyFailed({ error }: { error: unknown }) {
  const conflict = isRetraceError(error) && error.code === 'CONFLICT'
  return (
    <div className="dialog-error" role="alert" data-testid="rewind-error" data-code={isRetraceError(error) ? error.code : undefined}>
      <p className="dialog-error-title">{conflict ? 'The files changed since this preview' : 'The rewind stopped'}</p>
      <p>{errorMessage(error)}</p>
      <p className="muted">{conflict ? 'Nothing was written. Preview again to see the disk as it is now and choose again.' : 'Preview again to see the state of the files now.'}</p>
    </div>
  )
}
