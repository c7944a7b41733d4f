import { useState } from 'react'
import { errorMessage } from '../../lib/errors'
import { plural } from '../../lib/format'
import { Modal } from '../../ui/Modal'
import { downloadFile } from './download'
import { ExportedModal, useKeptFindings } from './ExportedModal'
import { AnonymizePathCheck, Review, useScanProgress } from './ExportReview'
import { useRenderWorkspaceExport, useWorkspaceExportReview } from './queries'

/**
 * Export every session of the workspace as one HTML page (a list in tree order, each session
 * linked to its transcript below it), after the same secret review as a session's export.
 */
export function WorkspaceExportDialog({ workspaceId, workspaceName, onClose, returnFocusTo }: { workspaceId: number; workspaceName: string; onClose: () => void; returnFocusTo: HTMLElement | null }) {
  const [redact, setRedact] = useState(true)
  const [anonymizePath, setAnonymizePath] = useState(false)
  const [kept, toggleKept] = useKeptFindings()
  const review = useWorkspaceExportReview(workspaceId, anonymizePath, redact)
  const render = useRenderWorkspaceExport()
  const progress = useScanProgress(`workspace:${workspaceId}`)
  const findings = review.data?.findings ?? []
  const hidden = findings.filter((finding) => !kept.has(finding.id)).length
  const ready = !redact || review.isSuccess
  const exportFile = () =>
    render.mutate({ workspaceId, anonymizePath, redact, keep: [...kept], token: review.data?.token }, { onSuccess: (file) => downloadFile(file.fileName, file.mimeType, file.content) })

  if (render.data) return <ExportedModal file={render.data} redact={redact} onClose={onClose} returnFocusTo={returnFocusTo} testId="workspace-export-dialog" />
  return (
    <Modal
      title="Export every session"
      onClose={onClose}
      canClose={!render.isPending}
      returnFocusTo={returnFocusTo}
      testId="workspace-export-dialog"
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
      <p className="dialog-intro">
        Every session of “{workspaceName}” in one HTML page a colleague can open offline: a list in the order of the session tree, each linked to its whole
        transcript further down. No script, no network.
      </p>
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
