import { useUiStore } from '../../state/ui-store'
import { ErrorState, Loading } from '../../ui/States'
import { ThemeToggle } from '../../ui/ThemeToggle'
import { GlobalSearch } from '../search/GlobalSearch'
import { SessionPanel } from '../sessions/SessionPanel'
import { TranscriptPane } from '../transcript/TranscriptPane'
import { useWorkspace } from './queries'

/** One workspace: its sessions on the left, the selected session's transcript on the right. */
export function WorkspaceView({ workspaceId }: { workspaceId: number }) {
  const workspace = useWorkspace(workspaceId)
  const closeWorkspace = useUiStore((state) => state.closeWorkspace)

  return (
    <div className="workspace-view" data-testid="workspace-view">
      <header className="app-header">
        <button type="button" className="button ghost" onClick={closeWorkspace} aria-label="Back to workspaces" title="Back to workspaces">
          <span aria-hidden="true">←</span> Workspaces
        </button>
        <div className="workspace-title">
          <span className="workspace-name">{workspace.data?.name ?? '…'}</span>
          {workspace.data ? (
            <span className="workspace-path mono" title={workspace.data.path}>
              {workspace.data.path}
            </span>
          ) : null}
        </div>
        <GlobalSearch workspaceId={workspaceId} />
        <ThemeToggle />
      </header>
      {workspace.isError ? (
        <main className="workspace-missing">
          <ErrorState title="Cannot open this workspace" error={workspace.error} onRetry={closeWorkspace} actionLabel="Back to workspaces" />
        </main>
      ) : !workspace.data ? (
        <main className="workspace-missing">
          <Loading label="Opening workspace…" />
        </main>
      ) : (
        <div className="workspace-body">
          <nav className="sidebar" aria-label="Sessions">
            <SessionPanel workspace={workspace.data} />
          </nav>
          <main className="content">
            <TranscriptPane />
          </main>
        </div>
      )}
    </div>
  )
}
