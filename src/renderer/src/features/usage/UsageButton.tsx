import { useState } from 'react'
import { createPortal } from 'react-dom'
import { Modal } from '../../ui/Modal'
import { UsageView } from './UsageView'

/** "Usage" in the workspace's More menu: its tokens and cost by day, model and source. */
export function UsageButton({ workspaceId }: { workspaceId: number }) {
  // The button that opened the view (focus goes back to it), or null while it is closed.
  const [opener, setOpener] = useState<HTMLElement | null>(null)
  return (
    <>
      <button type="button" className="button small" data-testid="usage-open" title="This workspace's tokens and cost, by day, by model and by source" onClick={(event) => setOpener(event.currentTarget)}>
        Usage
      </button>
      {/* In the document, not the header menu this button sits in (closed, it renders nothing inside). */}
      {opener
        ? createPortal(
            <Modal
              title="Usage"
              onClose={() => setOpener(null)}
              returnFocusTo={opener}
              testId="usage-dialog"
              wide
              footer={
                <button type="button" className="button primary" data-testid="usage-close" onClick={() => setOpener(null)}>
                  Close
                </button>
              }
            >
              <UsageView workspaceId={workspaceId} />
            </Modal>,
            document.body
          )
        : null}
    </>
  )
}
