import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { call } from '../../api/client'
import { sessionKeys, type SessionFilters } from '../../state/query-keys'

const PAGE_SIZE = 100

/** Newest first, one keyset page at a time as the virtual list nears its end. */
export function useSessionList(workspaceId: number, filters: SessionFilters) {
  return useInfiniteQuery({
    queryKey: sessionKeys.list(workspaceId, filters),
    queryFn: ({ pageParam }) =>
      call('sessions.list', {
        workspaceId,
        limit: PAGE_SIZE,
        cursor: pageParam,
        ...(filters.query.trim() ? { query: filters.query.trim() } : {}),
        ...(filters.source ? { source: filters.source } : {}),
        ...(filters.warmups ? { includeWarmups: true } : {})
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // Keep the old rows on screen while a new filter loads, instead of flashing a skeleton.
    placeholderData: keepPreviousData
  })
}

export function useSessionDetail(sessionId: string) {
  return useQuery({ queryKey: sessionKeys.detail(sessionId), queryFn: () => call('sessions.get', { sessionId }) })
}
