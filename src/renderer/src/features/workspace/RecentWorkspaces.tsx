import type { WorkspaceListing } from '../../../../shared/contract'
import { errorMessage } from '../../lib/errors'
import { plural } from '../../lib/format'
import { RelativeTime } from '../../ui/RelativeTime'
import { EmptyState, ErrorState, SkeletonRows } from '../../ui/States'
import { useOpenWorkspace, useReopenWorkspace } from './mutations'
import { useAllWorkspaces } from './queries'

/**
 * Every workspace: those opened or imported before, and every folder the agents' histories
 * record, most recent activity first. A row opens by id when Retrace holds the workspace, else
 * by its recorded path: either way the history is browsable even if the folder is gone.
 */
export function RecentWorkspaces() {
  const all = useAllWorkspaces()
  const reopen = useReopenWorkspace()
  const open = useOpenWorkspace()

  if (all.isPending) return <SkeletonRows count={3} />
  if (all.isError) return <ErrorState title="Could not list the workspaces" error={all.error} onRetry={() => void all.refetch()} />
  // A home or system folder (agents in containers record /root) is listed too: it opens read-only.
  const usable = all.data.items
  if (usable.length === 0) {
    return (
      <EmptyState title="No workspaces yet">
        Open a project folder to see every agent session that touched it, or try the demo workspace.
      </EmptyState>
    )
  }
  const failed = reopen.error ?? open.error
  return (
    <>
      <ul className="recent-list">
        {usable.map((workspace) => (
          <li key={workspace.path}>
            <WorkspaceRow
              workspace={workspace}
              pending={reopen.isPending || open.isPending}
              onOpen={() => (workspace.workspaceId !== null ? reopen.mutate(workspace.workspaceId) : open.mutate(workspace.path))}
            />
          </li>
        ))}
      </ul>
      {failed ? (
        <p className="open-error" role="alert" data-testid="workspace-open-error">
          {errorMessage(failed)}
        </p>
      ) : null}
    </>
  )
}

function WorkspaceRow({ workspace, pending, onOpen }: { workspace: WorkspaceListing; pending: boolean; onOpen: () => void }) {
  return (
    <button type="button" className="recent-row" data-testid="recent-workspace" data-folder-missing={!workspace.folderExists} data-read-only={workspace.refused !== null} disabled={pending} onClick={onOpen}>
      <span className="recent-name">
        {workspace.name}
        {workspace.isDemo ? <span className="badge badge-demo">demo</span> : null}
        {workspace.refused !== null ? (
          <span className="badge badge-missing" data-testid="recent-read-only" title={workspace.refused}>
            read-only
          </span>
        ) : null}
        {workspace.folderExists ? null : (
          <span className="badge badge-missing" title="No folder at this path on this computer (deleted, moved, or from another one): the history can be browsed, its files cannot be rewound.">
            folder missing
          </span>
        )}
      </span>
      <span className="recent-path mono" title={workspace.path}>
        {workspace.path}
      </span>
      <span className="recent-meta">
        {plural(workspace.sessionCount, 'session')}
        {workspace.sources.length > 0 ? ` · ${workspace.sources.map((entry) => entry.source).join(', ')}` : null}
        {workspace.lastActivityAt !== null ? (
          <>
            {' · active '}
            <RelativeTime at={workspace.lastActivityAt} />
          </>
        ) : null}
        {workspace.workspaceId === null ? ' · not imported yet' : null}
      </span>
    </button>
  )
}
