import type { WorkspaceSummary } from '../../../../shared/contract'
import { plural } from '../../lib/format'
import { RelativeTime } from '../../ui/RelativeTime'
import { EmptyState, ErrorState, SkeletonRows } from '../../ui/States'
import { useReopenWorkspace } from './mutations'
import { useRecentWorkspaces } from './queries'

/**
 * Workspaces opened before. A row opens by id, not by path: the history stays browsable
 * even if the folder has since been moved or deleted.
 */
export function RecentWorkspaces() {
  const recent = useRecentWorkspaces()

  if (recent.isPending) return <SkeletonRows count={3} />
  if (recent.isError) return <ErrorState title="Could not load recent workspaces" error={recent.error} onRetry={() => void recent.refetch()} />
  if (recent.data.items.length === 0) {
    return (
      <EmptyState title="No workspaces yet">
        Open a project folder to see every agent session that touched it, or try the demo workspace.
      </EmptyState>
    )
  }
  return (
    <ul className="recent-list">
      {recent.data.items.map((workspace) => (
        <li key={workspace.id}>
          <RecentRow workspace={workspace} />
        </li>
      ))}
    </ul>
  )
}

function RecentRow({ workspace }: { workspace: WorkspaceSummary }) {
  const reopen = useReopenWorkspace()
  return (
    <button type="button" className="recent-row" data-testid="recent-workspace" disabled={reopen.isPending} onClick={() => reopen.mutate(workspace.id)}>
      <span className="recent-name">
        {workspace.name}
        {workspace.isDemo ? <span className="badge badge-demo">demo</span> : null}
      </span>
      <span className="recent-path mono" title={workspace.path}>
        {workspace.path}
      </span>
      <span className="recent-meta">
        {plural(workspace.sessionCount, 'session')}
        {workspace.lastActivityAt !== null ? (
          <>
            {' · active '}
            <RelativeTime at={workspace.lastActivityAt} />
          </>
        ) : null}
      </span>
    </button>
  )
}
