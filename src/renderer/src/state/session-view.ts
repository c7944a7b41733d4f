/** How the workspace shows its sessions: the list (default) or the graph of the session tree. */
export type SessionView = 'list' | 'graph'

const STORAGE_KEY = 'retrace.sessionView'

export function initialSessionView(): SessionView {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'graph' ? 'graph' : 'list'
  } catch {
    return 'list'
  }
}

export function saveSessionView(view: SessionView): void {
  try {
    localStorage.setItem(STORAGE_KEY, view)
  } catch {
    // Not persisted; the toggle still works until the window closes.
  }
}
