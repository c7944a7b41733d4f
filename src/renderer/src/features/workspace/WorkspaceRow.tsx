import type { WorkspaceListing } from '../../../../shared/contract'
import { formatCost, plural } from '../../lib/format'
import { RelativeTime } from '../../ui/RelativeTime'

/** One workspace of the first screen's list: opens on click; hide (or show) and forget beside it. */
export function WorkspaceRow({
  workspace,
  pending,
  onOpen,
  onToggleHidden,
  onForget
}: {
  workspace: WorkspaceListing
  pending: boolean
  onOpen: () => void
  onToggleHidden: () => void
  onForget: ((opener: HTMLElement) => void) | null
}) {
  return (
    <div className="workspace-row" data-hidden={workspace.hidden}>
      <button type="button" className="recent-row" data-testid="recent-workspace" data-path={workspace.path} data-folder-missing={!workspace.folderExists} data-read-only={workspace.refused !== null} disabled={pending} onClick={onOpen}>
        <span className="recent-name">
          {workspace.name}
          {workspace.isDemo ? <span className="badge badge-demo">demo</span> : null}
          {workspace.hidden ? <span className="badge badge-muted">hidden</span> : null}
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
          <span data-testid="recent-sessions">{plural(workspace.sessionCount, 'session')}</span>
          {workspace.costUsd !== null ? ` · ${formatCost(workspace.costUsd)}` : null}
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
      <span className="workspace-row-actions">
        <button type="button" className="link-button" data-testid="workspace-hide" title={workspace.hidden ? 'Put it back in the list' : 'Take it out of the list (its sessions stay; "Show hidden" lists it)'} onClick={onToggleHidden}>
          {workspace.hidden ? 'Unhide' : 'Hide'}
        </button>
        {onForget ? (
          <button type="button" className="link-button" data-testid="workspace-forget" title="Remove it and its sessions from Retrace (asks first)" onClick={(event) => onForget(event.currentTarget)}>
            Forget…
          </button>
        ) : null}
      </span>
    </div>
  )
}
