import { useEffect } from 'react'
import { useUiStore } from '../state/ui-store'
import { formatPlace, parsePlace, type Place } from './hash-route'

function applyPlace(place: Place): void {
  const store = useUiStore.getState()
  if (place.workspaceId === null) {
    store.closeWorkspace()
    return
  }
  store.openWorkspace(place.workspaceId)
  if (store.sessionId !== place.sessionId) useUiStore.getState().selectSession(place.sessionId)
}

/** Read the initial place from the hash; call before the first render. */
export function restorePlaceFromHash(): void {
  applyPlace(parsePlace(window.location.hash))
}

/**
 * Keeps `location.hash` and the selected workspace/session in step. Entering or leaving a
 * workspace pushes a history entry (so Back returns to the workspace list); moving between
 * sessions replaces it, so Back does not walk through every row the user looked at.
 */
export function useHashSync(): void {
  useEffect(() => {
    const onPopState = (): void => applyPlace(parsePlace(window.location.hash))
    window.addEventListener('popstate', onPopState)
    const unsubscribe = useUiStore.subscribe((state, previous) => {
      if (state.workspaceId === previous.workspaceId && state.sessionId === previous.sessionId) return
      const hash = formatPlace({ workspaceId: state.workspaceId, sessionId: state.sessionId })
      if (hash === window.location.hash) return
      const url = `${window.location.pathname}${window.location.search}${hash}`
      try {
        if (state.workspaceId !== previous.workspaceId) window.history.pushState(null, '', url)
        else window.history.replaceState(null, '', url)
      } catch {
        // Some origins (file: in odd setups) refuse history writes; the app works without them.
      }
    })
    return () => {
      window.removeEventListener('popstate', onPopState)
      unsubscribe()
    }
  }, [])
}
