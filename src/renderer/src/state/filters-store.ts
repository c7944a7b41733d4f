import { create } from 'zustand'
import { useUiStore } from './ui-store'
import { NO_FILTERS, type SessionFilterState } from './session-filter'

export { isFiltered, matchesFilters, NO_FILTERS, type FilterableSession, type SessionFilterState } from './session-filter'

interface SessionFilterActions {
  setQuery: (query: string) => void
  setSource: (source: string | null) => void
  setRange: (range: { from?: string | null; until?: string | null }) => void
  setChangedFiles: (on: boolean) => void
  setBranchesOnly: (on: boolean) => void
  setFocus: (sessionId: string | null) => void
  /** Everything back to "all sessions" (focus too). */
  clear: () => void
}

/**
 * What the workspace's sessions are narrowed to, in one place: the list and the graph read the
 * same filters (the filter bar, SessionFilters, writes them), so switching views keeps them.
 * They reset when another workspace opens.
 */
export const useSessionFilters = create<SessionFilterState & SessionFilterActions>()((set) => ({
  ...NO_FILTERS,
  setQuery: (query) => set({ query }),
  setSource: (source) => set({ source }),
  setRange: (range) => set(range),
  setChangedFiles: (changedFiles) => set({ changedFiles }),
  setBranchesOnly: (branchesOnly) => set({ branchesOnly }),
  setFocus: (focusId) => set({ focusId }),
  clear: () => set(NO_FILTERS)
}))

// Filters belong to the workspace they were set in.
useUiStore.subscribe((state, previous) => {
  if (state.workspaceId !== previous.workspaceId) useSessionFilters.getState().clear()
})

