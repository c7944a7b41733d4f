import { useEffect, useState } from 'react'
import type { ExportFormat, SecretFindingDto } from '../../../../shared/contract'
import { onEvent } from '../../api/client'
import { errorMessage } from '../../lib/errors'
import { plural } from '../../lib/format'
import { Modal } from '../../ui/Modal'
import { Loading } from '../../ui/States'
import { useSessionDetail } from '../sessions'
import { downloadFile } from './download'
import { useExportReview, useRenderExport, type ExportChoice } from './queries'

const FORMATS: { value: ExportFormat; label: string; hint: string }[] = [
  { value: 'html', label: 'HTML page', hint: 'One self-contained page a colleague can open offline: no script, no network.' },
  { value: 'md', label: 'Markdown', hint: 'Plain text with fenced blocks, for a pull request or a wiki.' },
  { value: 'json', label: 'JSON', hint: 'Everything, versioned: Retrace imports it back as the same session, to replay or rewind.' }
]

/**
 * Export a session (or its conversation up to a turn): pick a format, review what redaction
 * will hide — each finding with its rule, where it is and a masked excerpt, any of them kept
 * as a false positive — then the file is made and handed over (a download; the desktop app's
 * Save dialog). Nothing is written before that last step.
 */
export function ExportDialog({ sessionId, throughTurn, onClose, returnFocusTo }: { sessionId: string; throughTurn: number | null; onClose: () => void; returnFocusTo: HTMLElement | null }) {
  const detail = useSessionDetail(sessionId)
  const [format, setFormat] = useState<ExportFormat>('html')
  const [withFiles, setWithFiles] = useState(false)
  const [redact, setRedact] = useState(true)
  const [anonymizePath, setAnonymizePath] = useState(false)
  const [kept, setKept] = useState<ReadonlySet<string>>(new Set())
  const choice: ExportChoice = { sessionId, format, withFiles, throughTurn, anonymizePath }
  const review = useExportReview(choice, redact)
  const render = useRenderExport()
  const progress = useScanProgress(sessionId)
  const findings = review.data?.findings ?? []
  const hidden = findings.filter((finding) => !kept.has(finding.id)).length
  const ready = !redact || review.isSuccess

  const toggleKept = (id: string) =>
    setKept((previous) => {
      const next = new Set(previous)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  const exportFile = () =>
    render.mutate(
      { choice, redact, keep: [...kept], token: review.data?.token },
      { onSuccess: (file) => downloadFile(file.fileName, file.mimeType, file.content) }
    )

  const what = detail.data ? `“${detail.data.title || 'Untitled session'}”${throughTurn !== null ? ` up to the end of turn ${throughTurn}` : ''}` : 'this session'
  if (render.data) {
    const file = render.data
    return (
      <Modal
        title="Exported"
        onClose={onClose}
        returnFocusTo={returnFocusTo}
        testId="export-dialog"
        footer={
          <button type="button" className="button primary" onClick={onClose} data-autofocus>
            Done
          </button>
        }
      >
        <p className="dialog-intro" data-testid="export-result">
          {file.fileName} ({formatSize(file.size)}) was handed to your browser’s downloads
          {redact ? `, with ${plural(file.redactedCount, 'secret')} hidden` : ', not redacted'}.
        </p>
        <button type="button" className="button" onClick={() => downloadFile(file.fileName, file.mimeType, file.content)}>
          Download again
        </button>
      </Modal>
    )
  }
  return (
    <Modal
      title={throughTurn !== null ? `Export up to turn ${throughTurn}` : 'Export session'}
      onClose={onClose}
      canClose={!render.isPending}
      returnFocusTo={returnFocusTo}
      testId="export-dialog"
      wide
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={render.isPending}>
            Cancel
          </button>
          <button type="button" className="button primary" data-testid="export-submit" onClick={exportFile} disabled={!ready || render.isPending}>
            {render.isPending ? 'Exporting…' : redact && review.isSuccess ? `Export, hiding ${plural(hidden, 'secret')}` : 'Export'}
          </button>
        </>
      }
    >
      <p className="dialog-intro">Export {what} to one file.</p>
      <fieldset className="export-formats">
        <legend className="visually-hidden">Format</legend>
        {FORMATS.map((option) => (
          <label key={option.value} className={`export-format${format === option.value ? ' selected' : ''}`}>
            <input type="radio" name="export-format" value={option.value} data-testid={`export-format-${option.value}`} checked={format === option.value} onChange={() => setFormat(option.value)} />
            <span className="export-format-label">{option.label}</span>
            <span className="export-format-hint muted">{option.hint}</span>
          </label>
        ))}
      </fieldset>
      {format === 'json' ? (
        <label className="dialog-check">
          <input type="checkbox" data-testid="export-with-files" checked={withFiles} onChange={(event) => setWithFiles(event.target.checked)} />
          Include the content of every changed file (so an import can replay and rewind them)
        </label>
      ) : null}
      <label className="dialog-check">
        <input type="checkbox" data-testid="export-anonymize-path" checked={anonymizePath} onChange={(event) => setAnonymizePath(event.target.checked)} />
        Replace the workspace’s local folder path with its name everywhere (and your home folder with ~)
      </label>
      <label className="dialog-check">
        <input type="checkbox" data-testid="export-redact" checked={redact} onChange={(event) => setRedact(event.target.checked)} />
        Hide secrets (API keys, tokens, passwords, private keys)
      </label>
      {redact ? <Review review={review} progress={progress} findings={findings} kept={kept} onToggle={toggleKept} /> : <p className="dialog-warning">Nothing will be hidden: check the file before you share it.</p>}
      {render.isError ? (
        <div className="dialog-error" role="alert">
          <p className="dialog-error-title">The file was not made</p>
          <p>{errorMessage(render.error)}</p>
        </div>
      ) : null}
    </Modal>
  )
}

function Review({
  review,
  progress,
  findings,
  kept,
  onToggle
}: {
  review: ReturnType<typeof useExportReview>
  progress: { done: number; total: number } | null
  findings: SecretFindingDto[]
  kept: ReadonlySet<string>
  onToggle: (id: string) => void
}) {
  if (review.isError) {
    return (
      <div className="dialog-error" role="alert">
        <p className="dialog-error-title">Could not scan the session for secrets</p>
        <p>{errorMessage(review.error)}</p>
        <button type="button" className="button" onClick={() => void review.refetch()}>
          Scan again
        </button>
      </div>
    )
  }
  if (!review.data) return <Loading label={progress ? `Looking for secrets… ${progress.done} of ${progress.total} texts` : 'Looking for secrets…'} />
  if (findings.length === 0) {
    return (
      <p className="export-review-none" data-testid="export-review" data-findings="0">
        No secrets found in {plural(review.data.scannedTexts, 'text')} (messages, tool calls, diffs, file names and, with files, their contents).
      </p>
    )
  }
  return (
    <div className="export-review" data-testid="export-review" data-findings={findings.length}>
      <p>
        {plural(findings.length, 'possible secret')} will be replaced by <code>[REDACTED: …]</code>. Keep one only if it is not a secret.
      </p>
      <ul className="export-findings">
        {findings.map((finding) => (
          <li key={finding.id} className={kept.has(finding.id) ? 'kept' : undefined} data-testid="export-finding" data-rule={finding.ruleId}>
            <label>
              <input type="checkbox" checked={kept.has(finding.id)} onChange={() => onToggle(finding.id)} aria-label={`Keep ${finding.ruleName} in ${finding.placeLabel} (not a secret)`} />
              <span className="export-finding-rule">{finding.ruleName}</span>
              <span className="export-finding-place muted">{finding.placeLabel}</span>
              <code className="export-finding-excerpt">{finding.excerpt}</code>
              <span className="export-finding-keep muted">{kept.has(finding.id) ? 'kept' : 'keep'}</span>
            </label>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** The running scan's progress for this session (export.progress events). */
function useScanProgress(sessionId: string): { done: number; total: number } | null {
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null)
  useEffect(
    () =>
      onEvent((event) => {
        if (event.name === 'export.progress' && event.payload.sessionId === sessionId) setProgress({ done: event.payload.done, total: event.payload.total })
      }),
    [sessionId]
  )
  return progress
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}
