import { useSessionFilters } from '../../state/filters-store'

/** While the graph is focused on one session: which, and the way back to every session. */
export function FocusBar({ focusId, title }: { focusId: string | null; title: string | undefined }) {
  if (focusId === null) return null
  return (
    <div className="tree-focus-bar" data-testid="tree-focus-bar" role="status">
      <span>
        Focused on <strong>{title || 'a session'}</strong>: its ancestors and descendants only
      </span>
      <button type="button" className="button small" data-testid="tree-focus-clear" onClick={() => useSessionFilters.getState().setFocus(null)}>
        ← All sessions
      </button>
    </div>
  )
}
