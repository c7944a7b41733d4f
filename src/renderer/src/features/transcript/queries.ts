import { useInfiniteQuery } from '@tanstack/react-query'
import type { TranscriptKind } from '../../../../shared/contract'
import { call } from '../../api/client'
import { transcriptKeys } from '../../state/query-keys'

const PAGE_SIZE = 150

/** A session's transcript from its first message forward, page by page (keyset on seq). */
export function useTranscript(sessionId: string, mode: TranscriptKind) {
  return useInfiniteQuery({
    queryKey: transcriptKeys.pages(sessionId, mode),
    queryFn: ({ pageParam }) =>
      call('transcript.page', { sessionId, transcript: mode, direction: 'after', cursor: pageParam, limit: PAGE_SIZE }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.afterCursor
  })
}
