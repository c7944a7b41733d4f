import { useMemo } from 'react'
import type { SearchHit } from '../../../../shared/contract'
import { EmptyState, ErrorState, SkeletonRows } from '../../ui/States'
import { isSearchable, useMessageSearch } from './queries'
import { SearchHitRow } from './SearchHitRow'
import { uniqueHits } from './unique-hits'

interface Props {
  query: string
  workspaceId: number | null
  onOpen: (hit: SearchHit) => void
}

export function SearchResults({ query, workspaceId, onOpen }: Props) {
  const search = useMessageSearch(query, workspaceId)
  const hits = useMemo(() => uniqueHits(search.data?.pages ?? []), [search.data])

  if (!isSearchable(query)) return <p className="search-hint muted">Type at least one letter or digit to search for.</p>
  if (search.isPending) return <SkeletonRows count={3} />
  if (search.isError) return <ErrorState title="Search failed" error={search.error} onRetry={() => void search.refetch()} />
  if (hits.length === 0) {
    return (
      <EmptyState title="No messages match">
        {workspaceId === null ? 'Try fewer or different words.' : 'Try fewer words, or search all workspaces.'}
      </EmptyState>
    )
  }
  return (
    <>
      <ul className="search-hits">
        {hits.map((hit) => (
          <li key={hit.messageId}>
            <SearchHitRow hit={hit} onOpen={onOpen} />
          </li>
        ))}
      </ul>
      {search.hasNextPage ? (
        <button type="button" className="button load-more" disabled={search.isFetchingNextPage} onClick={() => void search.fetchNextPage()}>
          {search.isFetchingNextPage ? 'Loading…' : 'More results'}
        </button>
      ) : null}
    </>
  )
}
