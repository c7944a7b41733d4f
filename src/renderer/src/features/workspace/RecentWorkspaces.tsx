import { useMemo, useState } from 'react'
import type { WorkspaceListing } from '../../../../shared/contract'
import { errorMessage } from '../../lib/errors'
import { plural } from '../../lib/format'
import { EmptyState, ErrorState, SkeletonRows } from '../../ui/States'
import { ForgetDialog } from './ForgetDialog'
import { useOpenWorkspace, useReopenWorkspace, useSetHidden } from './mutations'
import { useAllWorkspaces } from './queries'
import { filterWorkspaces, groupWorkspaces, SORT_LABELS, sortWorkspaces, type WorkspaceSort } from './workspace-list-model'
import { WorkspaceRow } from './WorkspaceRow'

/**
 * Every workspace: those opened or imported before, and every folder the agents' histories
 * record, filtered by text, sorted, grouped by parent folder where many share one. A row opens by
 * id when Retrace holds the workspace, else by its recorded path: either way the history is
 * browsable even if the folder is gone. Hidden ones are listed on request.
 */
export function RecentWorkspaces() {
  const all = useAllWorkspaces()
  const reopen = useReopenWorkspace()
  const open = useOpenWorkspace()
  const setHidden = useSetHidden()
  const [text, setText] = useState('')
  const [sort, setSort] = useState<WorkspaceSort>('activity')
  const [showHidden, setShowHidden] = useState(false)
  const [forgetting, setForgetting] = useState<{ workspace: WorkspaceListing; workspaceId: number; opener: HTMLElement } | null>(null)
  const items = all.data?.items
  const groups = useMemo(() => (items ? groupWorkspaces(sortWorkspaces(filterWorkspaces(items, text, showHidden), sort)) : []), [items, text, showHidden, sort])

  if (all.isPending) return <SkeletonRows count={3} />
  if (all.isError) return <ErrorState title="Could not list the workspaces" error={all.error} onRetry={() => void all.refetch()} />
  // A home or system folder (agents in containers record /root) is listed too: it opens read-only.
  const hiddenCount = all.data.items.filter((item) => item.hidden).length
  if (all.data.items.length === 0 && all.data.refreshing) {
    return (
      <p className="muted" data-testid="workspaces-looking">
        Looking through the agents&apos; histories…
      </p>
    )
  }
  if (all.data.items.length === 0) {
    return (
      <EmptyState title="No workspaces yet">
        Open a project folder to see every agent session that touched it, or try the demo workspace.
      </EmptyState>
    )
  }
  const failed = reopen.error ?? open.error ?? setHidden.error
  const shown = groups.reduce((sum, group) => sum + group.items.length, 0)
  return (
    <>
      <div className="workspace-tools">
        <input className="input" type="search" placeholder="Filter by folder or name" aria-label="Filter workspaces" data-testid="workspace-filter" value={text} onChange={(event) => setText(event.target.value)} />
        <select className="select" aria-label="Sort workspaces" data-testid="workspace-sort" value={sort} onChange={(event) => setSort(event.target.value as WorkspaceSort)}>
          {Object.entries(SORT_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        {hiddenCount > 0 ? (
          <label className="workspace-show-hidden">
            <input type="checkbox" data-testid="workspace-show-hidden" checked={showHidden} onChange={(event) => setShowHidden(event.target.checked)} /> Show hidden ({hiddenCount})
          </label>
        ) : null}
      </div>
      <p className="muted workspace-count" data-testid="workspace-count">
        {shown === all.data.items.length ? plural(shown, 'workspace') : `${shown} of ${plural(all.data.items.length, 'workspace')}`}
      </p>
      {shown === 0 ? <p className="muted">No workspace matches.</p> : null}
      <div className="recent-list" data-testid="workspace-list">
        {groups.map((group, index) => (
          <section key={group.parent ?? `ungrouped-${index}`} className="workspace-group" data-testid={group.parent ? 'workspace-group' : undefined}>
            {group.parent ? (
              <h3 className="workspace-group-title mono" title={group.parent}>
                {group.parent}/ <span className="muted">· {group.items.length}</span>
              </h3>
            ) : null}
            <ul className="workspace-group-items">
              {group.items.map((workspace) => (
                <li key={workspace.path}>
                  <WorkspaceRow
                    workspace={workspace}
                    pending={reopen.isPending || open.isPending}
                    onOpen={() => (workspace.workspaceId !== null ? reopen.mutate(workspace.workspaceId) : open.mutate(workspace.path))}
                    onToggleHidden={() => setHidden.mutate({ path: workspace.path, hidden: !workspace.hidden })}
                    onForget={workspace.workspaceId === null || workspace.isDemo ? null : (opener) => setForgetting({ workspace, workspaceId: workspace.workspaceId as number, opener })}
                  />
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
      {failed ? (
        <p className="open-error" role="alert" data-testid="workspace-open-error">
          {errorMessage(failed)}
        </p>
      ) : null}
      {forgetting ? <ForgetDialog workspace={forgetting.workspace} workspaceId={forgetting.workspaceId} opener={forgetting.opener} onClose={() => setForgetting(null)} /> : null}
    </>
  )
}
