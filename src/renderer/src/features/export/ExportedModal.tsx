import { useState } from 'react'
import { plural } from '../../lib/format'
import { Modal } from '../../ui/Modal'
import { downloadFile } from './download'
import { formatSize } from './ExportReview'

/** A made export, as the render methods return it. */
export interface ExportedFile {
  fileName: string
  mimeType: string
  content: string
  size: number
  redactedCount: number
}

/** The findings the user keeps (false positives), toggled one by one in the review. */
export function useKeptFindings(): [ReadonlySet<string>, (id: string) => void] {
  const [kept, setKept] = useState<ReadonlySet<string>>(new Set())
  const toggle = (id: string) =>
    setKept((previous) => {
      const next = new Set(previous)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  return [kept, toggle]
}

/** An export is made: what was handed to the downloads, how much was hidden, and a second download. */
export function ExportedModal({ file, redact, onClose, returnFocusTo, testId }: { file: ExportedFile; redact: boolean; onClose: () => void; returnFocusTo: HTMLElement | null; testId: string }) {
  return (
    <Modal
      title="Exported"
      onClose={onClose}
      returnFocusTo={returnFocusTo}
      testId={testId}
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
