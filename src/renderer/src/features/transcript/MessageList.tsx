import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useMemo, useRef } from 'react'
import type { TranscriptKind } from '../../../../shared/contract'
import { plural } from '../../lib/format'
import { useUiStore, type FocusTarget } from '../../state/ui-store'
import { EmptyState, ErrorState, SkeletonRows } from '../../ui/States'
import { useSessionDetail } from '../sessions/queries'
import { MessageRow } from './messages/MessageRow'
import { useTranscript } from './queries'
import { buildRows, rowIndexOfSeq } from './rows'
import { TurnHeader } from './TurnHeader'

/** Load the next page while this many rows remain below the viewport. */
const PREFETCH_ROWS = 15

/**
 * The transcript as a virtual list with measured (variable) row heights, paging forward as
 * the user scrolls. A search hit's message is brought into view by loading pages until it is
 * there, then scrolling to it once per request.
 */
export function MessageList({ sessionId, mode }: { sessionId: string; mode: TranscriptKind }) {
  const transcript = useTranscript(sessionId, mode)
  const detail = useSessionDetail(sessionId)
  const checkpoints = useMemo(() => new Map(detail.data?.checkpoints.map((checkpoint) => [checkpoint.turn, checkpoint])), [detail.data])
  const focus = useUiStore((state): FocusTarget | null => (state.focus?.sessionId === sessionId ? state.focus : null))
  const scrollRef = useRef<HTMLDivElement>(null)
  const scrolledFor = useRef<number | null>(null)
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = transcript

  const messages = useMemo(() => transcript.data?.pages.flatMap((page) => page.items) ?? [], [transcript.data])
  const total = transcript.data?.pages.at(-1)?.total ?? 0
  const rows = useMemo(() => buildRows(messages), [messages])
  const focusIndex = focus ? rowIndexOfSeq(rows, focus.seq) : -1

  // The React Compiler is not used in this build, so its memoization caveat does not apply.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    // One extra row at the end: "loading more" or the end-of-transcript line.
    count: rows.length + 1,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => (rows[index]?.type === 'turn' ? 40 : 96),
    getItemKey: (index) => rows[index]?.key ?? 'tail',
    overscan: 6
  })
  const items = virtualizer.getVirtualItems()
  const lastIndex = items.at(-1)?.index ?? -1

  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= rows.length - PREFETCH_ROWS) void fetchNextPage()
  }, [hasNextPage, isFetchingNextPage, lastIndex, rows.length, fetchNextPage])

  useEffect(() => {
    if (!focus || scrolledFor.current === focus.nonce) return
    if (focusIndex >= 0) {
      scrolledFor.current = focus.nonce
      virtualizer.scrollToIndex(focusIndex, { align: 'center' })
    } else if (hasNextPage && !isFetchingNextPage) {
      void fetchNextPage()
    }
  }, [focus, focusIndex, hasNextPage, isFetchingNextPage, fetchNextPage, virtualizer])

  if (transcript.isPending) return <SkeletonRows count={6} className="transcript-skeleton" />
  if (transcript.isError) return <ErrorState title="Could not load the transcript" error={transcript.error} onRetry={() => void transcript.refetch()} />
  if (rows.length === 0) {
    return (
      <EmptyState title={mode === 'context' ? 'Nothing in the model’s context' : 'This session has no messages'}>
        {mode === 'context' ? 'Switch to Display to see everything that was said.' : 'Messages appear here as the agent records them.'}
      </EmptyState>
    )
  }

  const seeking = focus !== null && focusIndex < 0 && hasNextPage
  return (
    <div ref={scrollRef} className="message-scroll" role="region" tabIndex={0} aria-label="Messages" aria-busy={transcript.isFetching}>
      <div className="virtual-space" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const row = rows[item.index]
          const focused = item.index === focusIndex
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className={`virtual-row transcript-row${focused ? ' focused' : ''}`}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {focused && focus ? <span key={focus.nonce} className="focus-flash" aria-hidden="true" /> : null}
              {!row ? (
                <div className="transcript-tail muted">
                  {hasNextPage ? 'Loading more…' : `End of transcript · ${plural(total, 'message')}`}
                </div>
              ) : row.type === 'turn' ? (
                <TurnHeader sessionId={sessionId} turn={row.turn} at={row.at} checkpoint={checkpoints.get(row.turn) ?? null} />
              ) : (
                <div className={row.message.inContext || mode === 'context' ? undefined : 'not-in-context'} title={row.message.inContext ? undefined : 'Compacted away: the model no longer sees this message'}>
                  <MessageRow message={row.message} result={row.result} moreToLoad={hasNextPage} focused={focused} />
                </div>
              )}
            </div>
          )
        })}
      </div>
      {seeking ? (
        <p className="seek-banner" role="status">
          Loading up to message #{focus.seq}…
        </p>
      ) : null}
    </div>
  )
}
