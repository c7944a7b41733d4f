import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { onConnectionChange, onEvent } from '../api/client'
import type { ConnectionState } from '../api/transport'
import { withProgress } from '../features/imports'
import { importKeys } from '../state/query-keys'
import { useUiStore } from '../state/ui-store'
import { keysToInvalidate } from './invalidation'

/**
 * Subscribes once to the main process's pushed events: invalidates what `data.changed`
 * names, follows `workspace.opened` (from the application menu), moves import progress bars
 * (`import.progress` into the cached status, `import.finished` refetches it), and after a dropped event
 * stream reconnects, refetches everything because events may have been missed meanwhile.
 * Returns the connection state for a banner.
 */
export function useServerEvents(): ConnectionState {
  const queryClient = useQueryClient()
  const [connection, setConnection] = useState<ConnectionState>('connected')

  useEffect(() => {
    const stopEvents = onEvent((event) => {
      if (event.name === 'data.changed') {
        for (const queryKey of keysToInvalidate(event.payload)) void refresh(queryClient, queryKey)
      } else if (event.name === 'workspace.opened') {
        useUiStore.getState().openWorkspace(event.payload.workspaceId)
      } else if (event.name === 'import.progress') {
        const key = importKeys.status(event.payload.workspaceId)
        queryClient.setQueryData(key, (status: Parameters<typeof withProgress>[0]) => withProgress(status, event.payload))
      } else if (event.name === 'import.finished') {
        // The report (skipped lines included) is fetched, not pushed.
        void refresh(queryClient, importKeys.status(event.payload.workspaceId))
        void refresh(queryClient, importKeys.unread(event.payload.workspaceId))
      }
      // rewind.progress and rewind.previewChanged are for the rewind dialog; nothing to refresh here.
    })
    const stopConnection = onConnectionChange((state) => {
      setConnection(state)
      if (state === 'connected') void refresh(queryClient)
    })
    return () => {
      stopEvents()
      stopConnection()
    }
  }, [queryClient])

  return connection
}

/**
 * Invalidate (and refetch what is on screen). A query whose *first* fetch is still in flight
 * needs more: TanStack Query would join that request rather than start another, and the
 * request may have been answered before the change, leaving old data that, with
 * `staleTime: Infinity`, nothing would ever refresh. Cancel such fetches so a new one starts.
 * Without a key, every query.
 */
async function refresh(queryClient: QueryClient, queryKey: QueryKey = []): Promise<void> {
  const firstFetches = queryClient.getQueryCache().findAll({ queryKey, predicate: (query) => query.state.fetchStatus === 'fetching' && query.state.data === undefined })
  for (const query of firstFetches) await queryClient.cancelQueries({ queryKey: query.queryKey, exact: true })
  await queryClient.invalidateQueries({ queryKey })
}
