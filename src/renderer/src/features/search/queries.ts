import { useInfiniteQuery } from '@tanstack/react-query'
import { call } from '../../api/client'
import { searchKeys } from '../../state/query-keys'

const PAGE_SIZE = 20

/** The server's full-text index needs a letter or digit; punctuation alone finds nothing. */
export function isSearchable(query: string): boolean {
  return /[\p{L}\p{N}]/u.test(query)
}

/** Full-text hits, best first; `workspaceId` null searches every workspace. */
export function useMessageSearch(query: string, workspaceId: number | null) {
  const trimmed = query.trim()
  return useInfiniteQuery({
    queryKey: searchKeys.results(trimmed, workspaceId),
    queryFn: ({ pageParam }) =>
      call('search.messages', {
        query: trimmed,
        limit: PAGE_SIZE,
        cursor: pageParam,
        ...(workspaceId === null ? {} : { workspaceId })
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: isSearchable(trimmed)
  })
}
