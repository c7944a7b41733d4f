import { useInfiniteQuery } from '@tanstack/react-query'
import type { TranscriptKind } from '../../../../shared/contract'
import { call } from '../../api/client'

const PAGE_SIZE = 150

export const transcriptKeys = {
  all: ['transcript'] as const,
  session: (sessionId: string) => [...transcriptKeys.all, sessionId] as const,
  pages: (sessionId: string, mode: TranscriptKind) => [...transcriptKeys.session(sessionId), mode] as const
}

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
