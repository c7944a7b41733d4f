import { useState } from 'react'
import type { ExportFormat } from '../../../../shared/contract'
import { errorMessage } from '../../lib/errors'
import { plural } from '../../lib/format'
import { Modal } from '../../ui/Modal'
import { useSessionDetail } from '../sessions'
import { downloadFile } from './download'
import { ExportedModal, useKeptFindings } from './ExportedModal'
import { AnonymizePathCheck, Review, useScanProgress } from './ExportReview'
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
  const [kept, toggleKept] = useKeptFindings()
  const choice: ExportChoice = { sessionId, format, withFiles, throughTurn, anonymizePath }
  const review = useExportReview(choice, redact)
  const render = useRenderExport()
  const progress = useScanProgress(sessionId)
  const findings = review.data?.findings ?? []
  const hidden = findings.filter((finding) => !kept.has(finding.id)).length
  const ready = !redact || review.isSuccess

  const exportFile = () =>
    render.mutate(
      { choice, redact, keep: [...kept], token: review.data?.token },
      { onSuccess: (file) => downloadFile(file.fileName, file.mimeType, file.content) }
    )

  const what = detail.data ? `“${detail.data.title || 'Untitled session'}”${throughTurn !== null ? ` up to the end of turn ${throughTurn}` : ''}` : 'this session'
  if (render.data) return <ExportedModal file={render.data} redact={redact} onClose={onClose} returnFocusTo={returnFocusTo} testId="export-dialog" />
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
      <AnonymizePathCheck checked={anonymizePath} onChange={setAnonymizePath} />
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
