import { useState, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { Modal } from './Modal'

/**
 * A button of the workspace's More menu that opens a wide dialog closed by its Close button
 * (Usage, Sources, Connect agents). Test ids: `<testId>-open`, `-dialog`, `-close`.
 */
export function DialogButton({ label, tooltip, dialogTitle, testId, children }: { label: string; tooltip: string; dialogTitle: string; testId: string; children: ReactNode }) {
  // The button that opened the dialog (focus goes back to it), or null while it is closed.
  const [opener, setOpener] = useState<HTMLElement | null>(null)
  return (
    <>
      <button type="button" className="button small" data-testid={`${testId}-open`} title={tooltip} onClick={(event) => setOpener(event.currentTarget)}>
        {label}
      </button>
      {/* In the document, not the header menu this button sits in (closed, it renders nothing inside). */}
      {opener
        ? createPortal(
            <Modal
              title={dialogTitle}
              onClose={() => setOpener(null)}
              returnFocusTo={opener}
              testId={`${testId}-dialog`}
              wide
              footer={
                <button type="button" className="button primary" data-testid={`${testId}-close`} onClick={() => setOpener(null)}>
                  Close
                </button>
              }
            >
              {children}
            </Modal>,
            document.body
          )
        : null}
    </>
  )
}
