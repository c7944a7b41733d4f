import type { WorkspaceSummary } from '../../../../shared/contract'
import { SessionFilters } from './SessionFilters'
import { SessionList } from './SessionList'

export function SessionPanel({ workspace }: { workspace: WorkspaceSummary }) {
  return (
    <div className="session-panel">
      <SessionFilters sources={workspace.sources.map((entry) => entry.source)} />
      <SessionList workspaceId={workspace.id} />
    </div>
  )
}
