import { useState } from 'react'
import { createPortal } from 'react-dom'
import { WorkspaceExportDialog } from './WorkspaceExportDialog'

/** "Export all sessions…" in the workspace's menu: the index page of every session. */
export function ExportWorkspaceButton({ workspaceId, workspaceName }: { workspaceId: number; workspaceName: string }) {
  // The button that opened the dialog (focus goes back to it), or null while it is closed.
  const [opener, setOpener] = useState<HTMLElement | null>(null)
  return (
    <>
      <button
        type="button"
        className="button small"
        data-testid="export-workspace"
        title="Every session of this workspace in one self-contained HTML page, each linked from a list"
        onClick={(event) => setOpener(event.currentTarget)}
      >
        Export all sessions…
      </button>
      {/* In the document, not the header menu this button sits in (closed, it renders nothing inside). */}
      {opener
        ? createPortal(<WorkspaceExportDialog workspaceId={workspaceId} workspaceName={workspaceName} onClose={() => setOpener(null)} returnFocusTo={opener} />, document.body)
        : null}
    </>
  )
}
