import { useEffect, useState } from 'react'
import { isRetraceError } from '../../../../shared/contract'
import { errorMessage } from '../../lib/errors'
import { plural } from '../../lib/format'
import { Modal } from '../../ui/Modal'
import { importView } from './import-model'
import { useCancelImport, useImportStatus, useRunImport } from './queries'

/** A step of live following takes a few milliseconds: only an import that lasts gets a bar. */
const SHOW_PROGRESS_AFTER_MS = 400

/**
 * The workspace's import, quietly, in the header: while it runs, "Importing agent histories…
 * 3 of 12 files" with a bar and Cancel; then what it brought in, the lines it had to skip (a
 * list on request) and, after a cancel, the files left and a way to import them.
 */
export function ImportStatus({ workspaceId }: { workspaceId: number }) {
  const status = useImportStatus(workspaceId)
  const cancel = useCancelImport(workspaceId)
  const run = useRunImport(workspaceId)
  /** Which list is shown (skipped lines, or file changes not journaled), and its button (focus goes back there). */
  const [details, setDetails] = useState<{ kind: ProblemKind; from: HTMLElement } | null>(null)
  const view = importView(status.data)
  const longRunning = useLasting(view.kind === 'running', SHOW_PROGRESS_AFTER_MS)
  // A quick step keeps showing the summary it will add to.
  const shown = view.kind === 'running' && !longRunning && status.data ? importView({ ...status.data, state: 'done' }) : view
  const runError = run.error && !(isRetraceError(run.error) && run.error.code === 'CANCELLED') ? run.error : null

  if (shown.kind === 'hidden') return null
  if (shown.kind === 'running') {
    return (
      <div className="import-status running" data-testid="import-status" data-state="running">
        <div className="import-lines">
          <span className="import-label" role="status" title={shown.file || undefined}>
            {shown.label}
          </span>
          <progress className="import-bar" data-testid="import-progress" max={shown.total} value={shown.done} aria-label="Import progress" />
        </div>
        <button type="button" className="button small" data-testid="import-cancel" disabled={cancel.isPending} onClick={() => cancel.mutate()} title="Stop importing. What was imported stays; the rest can be imported later.">
          Cancel
        </button>
      </div>
    )
  }
  if (shown.kind === 'failed') {
    return (
      <div className="import-status failed" data-testid="import-status" data-state="failed" role="alert">
        <div className="import-lines">
          <span className="import-label" title={shown.error}>
            {shown.label}: {shown.error}
          </span>
          <span>
            <button type="button" className="link-button" data-testid="import-retry" disabled={run.isPending} onClick={() => run.mutate()}>
              Try again
            </button>
          </span>
        </div>
      </div>
    )
  }
  const secondLine = shown.skipped > 0 || shown.notJournaled > 0 || shown.pendingFiles > 0 || runError !== null
  return (
    <>
      <div className="import-status" data-testid="import-status" data-state={shown.cancelled ? 'cancelled' : 'done'}>
        <div className="import-lines">
          <span className="import-label" data-testid="import-summary" title={shown.detail}>
            {shown.label}
          </span>
          {secondLine ? (
            <span className="import-more">
              {shown.skipped > 0 ? (
                <button type="button" className="link-button" data-testid="import-skipped-details" aria-haspopup="dialog" onClick={(event) => setDetails({ kind: 'skipped', from: event.currentTarget })}>
                  {plural(shown.skipped, 'line')} skipped — details
                </button>
              ) : null}
              {shown.notJournaled > 0 ? (
                <button
                  type="button"
                  className="link-button"
                  data-testid="import-not-journaled-details"
                  aria-haspopup="dialog"
                  title={`${plural(shown.notJournaled, 'file change')} could not be journaled (their lines were imported): a rewind cannot put them back. Click for the list.`}
                  onClick={(event) => setDetails({ kind: 'notJournaled', from: event.currentTarget })}
                >
                  {plural(shown.notJournaled, 'change')} not journaled
                </button>
              ) : null}
              {shown.pendingFiles > 0 ? (
                <>
                  <span className="import-pending" data-testid="import-pending">
                    Cancelled: {plural(shown.pendingFiles, 'file')} left
                  </span>
                  <button type="button" className="link-button" data-testid="import-resume" disabled={run.isPending} onClick={() => run.mutate()}>
                    Import them
                  </button>
                </>
              ) : null}
              {runError ? (
                <span className="import-error" role="alert" title={errorMessage(runError)}>
                  Import failed
                </span>
              ) : null}
            </span>
          ) : null}
        </div>
      </div>
      {details && status.data?.report ? (
        <ProblemLines
          kind={details.kind}
          lines={details.kind === 'skipped' ? status.data.report.skipped : status.data.report.changesNotJournaled}
          total={details.kind === 'skipped' ? status.data.skippedTotal : status.data.notJournaledTotal}
          onClose={() => setDetails(null)}
          returnFocusTo={details.from}
        />
      ) : null}
    </>
  )
}

/** True once `active` has held for `ms` (false again as soon as it stops). */
function useLasting(active: boolean, ms: number): boolean {
  const [lasted, setLasted] = useState(false)
  useEffect(() => {
    if (!active) return
    const timer = window.setTimeout(() => setLasted(true), ms)
    return () => {
      window.clearTimeout(timer)
      setLasted(false)
    }
  }, [active, ms])
  return active && lasted
}

type ProblemKind = 'skipped' | 'notJournaled'

const PROBLEM_TEXT: Record<ProblemKind, { title: string; intro: string; unit: string }> = {
  skipped: {
    title: 'Skipped lines',
    intro: 'These lines of the agents’ history files could not be imported; everything else was. The agents’ files are only read, never changed.',
    unit: 'line'
  },
  notJournaled: {
    title: 'File changes not journaled',
    intro:
      'The lines recording these file changes were imported, but the changes themselves could not be journaled (their earlier content is unknown, or they are outside the workspace), so a rewind cannot put them back.',
    unit: 'change'
  }
}

/** The lines an import could not use, or the file changes it could not journal, file by file: where in the file, and why. */
function ProblemLines({
  kind,
  lines: all,
  total,
  onClose,
  returnFocusTo
}: {
  kind: ProblemKind
  lines: { file: string; offset: number; reason: string }[]
  total: number
  onClose: () => void
  returnFocusTo: HTMLElement | null
}) {
  const text = PROBLEM_TEXT[kind]
  const byFile = new Map<string, { offset: number; reason: string }[]>()
  for (const line of all) byFile.set(line.file, [...(byFile.get(line.file) ?? []), line])
  return (
    <Modal
      title={`${text.title} (${total.toLocaleString()})`}
      onClose={onClose}
      returnFocusTo={returnFocusTo}
      testId={kind === 'skipped' ? 'skipped-lines' : 'not-journaled-changes'}
      wide
      footer={
        <button type="button" className="button primary" onClick={onClose} data-autofocus>
          Close
        </button>
      }
    >
      <p className="skipped-intro">
        {text.intro}
        {total > all.length ? ` Showing the first ${all.length.toLocaleString()}.` : ''}
      </p>
      {[...byFile].map(([file, lines]) => (
        <section key={file} className="skipped-file" data-testid="skipped-file" data-file={file}>
          <h3 className="skipped-path mono" title={file}>
            {file} <span className="skipped-count">· {plural(lines.length, text.unit)}</span>
          </h3>
          <table className="history-table skipped-table">
            <thead>
              <tr>
                <th scope="col">At byte</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line, index) => (
                <tr key={`${line.offset}:${index}`} data-testid="skipped-line">
                  <td className="mono nowrap skipped-offset">{line.offset.toLocaleString()}</td>
                  <td className="skipped-reason">{line.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </Modal>
  )
}
