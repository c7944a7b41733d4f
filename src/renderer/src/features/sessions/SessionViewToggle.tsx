import type { SessionView } from '../../state/session-view'
import { useUiStore } from '../../state/ui-store'

const VIEWS: { view: SessionView; label: string; title: string }[] = [
  { view: 'list', label: 'List', title: 'Sessions as a list, newest first' },
  { view: 'graph', label: 'Graph', title: 'Sessions as a graph: forks, sub-agents, successors and merges' }
]

/** List | Graph: how the workspace shows its sessions (remembered). */
export function SessionViewToggle() {
  const current = useUiStore((state) => state.sessionView)
  const setView = useUiStore((state) => state.setSessionView)
  return (
    <div className="view-toggle" role="group" aria-label="Show sessions as" data-testid="session-view-toggle">
      {VIEWS.map(({ view, label, title }) => (
        <button
          key={view}
          type="button"
          className={view === current ? 'active' : undefined}
          data-testid={`session-view-${view}`}
          aria-pressed={view === current}
          title={title}
          onClick={() => setView(view)}
        >
          {label}
        </button>
      ))}
    </div>
  )
}
