import { useUiStore } from '../../state/ui-store'
import { ErrorState, Loading } from '../../ui/States'
import { ThemeToggle } from '../../ui/ThemeToggle'
import { AgentStateButton } from '../agent-state'
import { ConnectAgentsButton } from '../connect-agents'
import { ExportWorkspaceButton, OpenExport } from '../export'
import { RetentionNotice, SourcesButton } from '../sources'
import { HeaderMenu } from '../../ui/HeaderMenu'
import { ImportStatus } from '../imports'
import { GlobalSearch } from '../search'
import { SessionPanel, SessionViewToggle } from '../sessions'
import { RecoveryNotice } from '../checkpoints'
import { TranscriptPane } from '../transcript'
import { UsageButton } from '../usage'
import { SessionTree } from '../tree'
import { ReadOnlyNotice } from './ReadOnlyNotice'
import { useWorkspace } from './queries'

/**
 * One workspace: its sessions on the left (a list, or the graph in a wider column), the
 * selected session's transcript on the right. The graph takes the whole width until a session
 * is selected.
 */
export function WorkspaceView({ workspaceId }: { workspaceId: number }) {
  const workspace = useWorkspace(workspaceId)
  const closeWorkspace = useUiStore((state) => state.closeWorkspace)
  const view = useUiStore((state) => state.sessionView)
  const hasSelection = useUiStore((state) => state.sessionId !== null)

  return (
    <div className="workspace-view" data-testid="workspace-view">
      <header className="app-header">
        <button type="button" className="button ghost" onClick={closeWorkspace} aria-label="Back to workspaces" title="Back to workspaces">
          <span aria-hidden="true">←</span> Workspaces
        </button>
        <div className="workspace-title">
          <span className="workspace-name">
            {workspace.data?.name ?? '…'}
            {workspace.data?.readOnly ? (
              <span className="badge badge-missing" data-testid="workspace-read-only" title={workspace.data.readOnly}>
                read-only
              </span>
            ) : null}
            {workspace.data && !workspace.data.folderExists ? (
              <span className="badge badge-missing" data-testid="workspace-folder-missing" title="No folder at this path on this computer (deleted, moved, or from another one): the history can be browsed, its files cannot be rewound.">
                folder missing
              </span>
            ) : null}
          </span>
          {workspace.data ? (
            <span className="workspace-path mono" title={workspace.data.path}>
              {workspace.data.path}
            </span>
          ) : null}
        </div>
        <SessionViewToggle />
        {workspace.data && !workspace.data.isDemo ? <ImportStatus workspaceId={workspaceId} /> : null}
        {workspace.data ? <AgentStateButton workspaceId={workspaceId} /> : null}
        {workspace.data ? (
          <HeaderMenu label="More ▾" title="Sources of agent histories, connecting agents, usage and cost, opening an exported session, and exporting every session" testId="workspace-menu">
            {/* In the demo too: the README sends a new user here first. */}
            <SourcesButton workspaceId={workspaceId} isDemo={workspace.data.isDemo} />
            <ConnectAgentsButton workspaceId={workspaceId} isDemo={workspace.data.isDemo} />
            <UsageButton workspaceId={workspaceId} />
            <OpenExport workspaceId={workspaceId} />
            <ExportWorkspaceButton workspaceId={workspaceId} workspaceName={workspace.data.name} />
          </HeaderMenu>
        ) : null}
        <GlobalSearch workspaceId={workspaceId} />
        <ThemeToggle />
      </header>
      {/* One grid row for the notices (each renders nothing when it has nothing to say). */}
      <div className="workspace-notices">
        <RecoveryNotice workspaceId={workspaceId} />
        {workspace.data?.readOnly ? <ReadOnlyNotice reason={workspace.data.readOnly} /> : null}
        {workspace.data && !workspace.data.isDemo ? <RetentionNotice usesClaudeCode={workspace.data.sources.some((entry) => entry.source === 'claude-code')} /> : null}
      </div>
      {workspace.isError ? (
        <main className="workspace-missing">
          <ErrorState title="Cannot open this workspace" error={workspace.error} onRetry={closeWorkspace} actionLabel="Back to workspaces" />
        </main>
      ) : !workspace.data ? (
        <main className="workspace-missing">
          <Loading label="Opening workspace…" />
        </main>
      ) : view === 'graph' ? (
        <div className={`workspace-body graph${hasSelection ? '' : ' graph-only'}`}>
          <nav className="tree-pane" aria-label="Session graph">
            <SessionTree workspaceId={workspaceId} />
          </nav>
          {hasSelection ? (
            <main className="content">
              <TranscriptPane />
            </main>
          ) : null}
        </div>
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
