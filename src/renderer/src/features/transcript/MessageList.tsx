import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useMemo, useRef, type RefObject } from 'react'
import type { TranscriptKind } from '../../../../shared/contract'
import { plural } from '../../lib/format'
import { useUiStore, type FocusTarget } from '../../state/ui-store'
import { EmptyState, ErrorState, SkeletonRows } from '../../ui/States'
import { useReplayReveal } from '../replay'
import { useRewindList } from '../checkpoints'
import { useSessionDetail } from '../sessions'
import { useFindHighlights } from './find-highlights'
import { InternalsLine } from './messages/InternalsLine'
import { NotInFileNote } from './messages/NotInFileNote'
import { MessageRow } from './messages/MessageRow'
import { useTranscript } from './queries'
import { buildRows, rowIndexOfSeq, rowIndexOfTurn, turnOfRow, turnStep } from './rows'
import { BranchMarker } from './ChildLinks'
import { branchesByTurn, childrenAt, subAgentsBySeq, subAgentsOfRow } from './session-children'
import { TurnHeader } from './TurnHeader'
import { turnStates } from './turn-states'

/** What the transcript pane asks of the list: where the reader is, and moving by turns. */
export interface TranscriptNav {
  /** The seq of the first message at the top of the viewport (null before any is shown). */
  topSeq(): number | null
  /** j / k: the next turn, or back to the start of this one (the previous one from its header). */
  stepTurn(direction: 1 | -1): void
  /** Give the keyboard to the list (after the find bar or the turn field closes). */
  focusList(): void
}

/** The find bar's state, for highlighting: the text searched for and the current match's row. */
export interface FindView {
  query: string
  currentSeq: number | null
}

/** Load the next page while this many rows remain below the viewport. */
const PREFETCH_ROWS = 15

/**
 * The transcript as a virtual list with measured (variable) row heights, paging forward as
 * the user scrolls. A search hit's or find match's message, or a turn (jump to turn, j / k),
 * is brought into view by loading pages until it is there, then scrolling to it once per
 * request. Turn headers show their checkpoint's state (current, rewound past, invalidated);
 * find matches are highlighted in the rows on screen.
 */
export function MessageList({ sessionId, mode, find = null, navRef }: { sessionId: string; mode: TranscriptKind; find?: FindView | null; navRef?: RefObject<TranscriptNav | null> }) {
  const transcript = useTranscript(sessionId, mode)
  const detail = useSessionDetail(sessionId)
  const rewinds = useRewindList(sessionId)
  const checkpoints = useMemo(() => new Map(detail.data?.checkpoints.map((checkpoint) => [checkpoint.turn, checkpoint])), [detail.data])
  const branches = useMemo(() => branchesByTurn(detail.data), [detail.data])
  const subAgents = useMemo(() => subAgentsBySeq(detail.data), [detail.data])
  const focus = useUiStore((state): FocusTarget | null => (state.focus?.sessionId === sessionId ? state.focus : null))
  const focusInSession = useUiStore((state) => state.focusInSession)
  const scrollRef = useRef<HTMLDivElement>(null)
  const scrolledFor = useRef<number | null>(null)
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = transcript

  const loaded = useMemo(() => transcript.data?.pages.flatMap((page) => page.items) ?? [], [transcript.data])
  // A replay shows the transcript only as far as it has played.
  const reveal = useReplayReveal(sessionId)
  const messages = useMemo(() => (reveal === null ? loaded : loaded.slice(0, reveal)), [loaded, reveal])
  const total = transcript.data?.pages.at(-1)?.total ?? 0
  const showInternals = useUiStore((state) => state.showInternals)
  const rows = useMemo(() => buildRows(messages, { showInternals }), [messages, showInternals])
  const focusIndex = !focus ? -1 : focus.kind === 'turn' ? rowIndexOfTurn(rows, focus.turn) : rowIndexOfSeq(rows, focus.seq)
  const states = useMemo(() => {
    const firstMessageAt = new Map<number, number | null>()
    for (const row of rows) if (row.type === 'turn' && !firstMessageAt.has(row.turn)) firstMessageAt.set(row.turn, row.at)
    return turnStates({
      turnCount: detail.data?.turnCount ?? 0,
      checkpoints: detail.data?.checkpoints ?? [],
      rewinds: rewinds.data?.items ?? [],
      startedAt: (turn) => firstMessageAt.get(turn) ?? null
    })
  }, [rows, detail.data, rewinds.data])
  useFindHighlights(scrollRef, find?.query ?? '', find?.currentSeq ?? null, focus?.kind === 'message' && focus.seq === find?.currentSeq ? focus.nonce : null, rows.length > 0)

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
    // A replay loads pages as it plays (use-replay-clock.ts), not as its short list scrolls.
    if (reveal === null && hasNextPage && !isFetchingNextPage && lastIndex >= rows.length - PREFETCH_ROWS) void fetchNextPage()
  }, [reveal, hasNextPage, isFetchingNextPage, lastIndex, rows.length, fetchNextPage])

  // A replay follows the newest message shown.
  useEffect(() => {
    if (reveal !== null && rows.length > 0) virtualizer.scrollToIndex(rows.length, { align: 'end' })
  }, [reveal, rows.length, virtualizer])

  useEffect(() => {
    if (!focus || scrolledFor.current === focus.nonce) return
    if (focusIndex >= 0) {
      scrolledFor.current = focus.nonce
      // A turn starts at the top of the view; a message (search hit, find match) sits in the middle.
      virtualizer.scrollToIndex(focusIndex, { align: focus.kind === 'turn' ? 'start' : 'center' })
    } else if (hasNextPage && !isFetchingNextPage) {
      void fetchNextPage()
    }
  }, [focus, focusIndex, hasNextPage, isFetchingNextPage, fetchNextPage, virtualizer])

  useEffect(() => {
    if (!navRef) return
    /** The row at the top of the viewport, and whether it is a turn's header sitting right there. */
    const top = () => {
      const scrollTop = scrollRef.current?.scrollTop ?? 0
      const item = virtualizer.getVirtualItems().find((candidate) => candidate.end > scrollTop + 1)
      const row = item ? rows[item.index] : undefined
      return item && row ? { row, headerAtTop: row.type === 'turn' && item.start >= scrollTop - 4 } : null
    }
    navRef.current = {
      topSeq: () => {
        const at = top()
        if (!at) return null
        if (at.row.type === 'message') return at.row.message.seq
        if (at.row.type === 'internals') return at.row.messages[0]?.seq ?? null
        const next = rows[rows.indexOf(at.row) + 1]
        return next?.type === 'message' ? next.message.seq : null
      },
      stepTurn: (direction) => {
        const first = rows[0]
        if (!first) return
        const at = top()
        const lastLoaded = rows.at(-1)
        const last = Math.max(detail.data?.turnCount ?? 0, lastLoaded ? turnOfRow(lastLoaded) : 0)
        const target = turnStep(at ? { turn: turnOfRow(at.row), headerAtTop: at.headerAtTop } : null, direction, { first: turnOfRow(first), last })
        if (target !== null) focusInSession({ sessionId, kind: 'turn', turn: target, flash: false })
      },
      focusList: () => scrollRef.current?.focus({ preventScroll: true })
    }
    return () => {
      navRef.current = null
    }
  }, [navRef, rows, virtualizer, detail.data, sessionId, focusInSession])

  if (transcript.isPending) return <SkeletonRows count={6} className="transcript-skeleton" />
  if (transcript.isError) return <ErrorState title="Could not load the transcript" error={transcript.error} onRetry={() => void transcript.refetch()} />
  if (rows.length === 0 && reveal !== null) {
    return <EmptyState title="Replay from the first message">Press Play to watch this session unfold, or Step to go one message at a time.</EmptyState>
  }
  if (rows.length === 0) {
    return (
      <EmptyState title={mode === 'context' ? 'Nothing in the model’s context' : 'This session has no messages'}>
        {mode === 'context' ? 'Switch to Display to see everything that was said.' : 'Messages appear here as the agent records them.'}
      </EmptyState>
    )
  }

  const seeking = focus !== null && focusIndex < 0 && hasNextPage
  const seekingLabel = !focus ? '' : focus.kind === 'turn' ? `Loading up to turn ${focus.turn}…` : `Loading up to message #${focus.seq}…`
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
              {focused && focus?.flash ? <span key={focus.nonce} className="focus-flash" aria-hidden="true" /> : null}
              {!row ? (
                <div className="transcript-tail muted">
                  {reveal !== null
                    ? `Replayed ${Math.min(reveal, total)} of ${plural(total, 'message')}`
                    : hasNextPage
                      ? 'Loading more…'
                      : `End of transcript · ${plural(total, 'message')}`}
                </div>
              ) : row.type === 'turn' ? (
                <>
                  <TurnHeader sessionId={sessionId} turn={row.turn} at={row.at} checkpoint={checkpoints.get(row.turn) ?? null} state={states.get(row.turn) ?? null} lastChangedTurn={detail.data?.lastChangedTurn} />
                  {branches.has(row.turn) ? <BranchMarker turn={row.turn} branches={childrenAt(branches, row.turn)} /> : null}
                </>
              ) : row.type === 'internals' ? (
                <InternalsLine messages={row.messages} />
              ) : row.type === 'not-in-file' ? (
                <NotInFileNote />
              ) : (
                <div
                  data-seq={row.message.seq}
                  className={[row.message.inContext || mode === 'context' ? '' : 'not-in-context', row.internal ? 'internal' : '', row.notInFile ? 'not-in-file' : ''].join(' ').trim() || undefined}
                  title={rowTitle(row.message.inContext, row.notInFile === true)}
                >
                  <MessageRow
                    message={row.message}
                    result={row.result}
                    moreToLoad={hasNextPage}
                    focused={focused}
                    subAgents={subAgentsOfRow(subAgents, row.message.seq, row.result?.seq ?? null)}
                    compactCommand={row.compactCommand ?? null}
                    root={detail.data?.cwd ?? null}
                  />
                </div>
              )}
            </div>
          )
        })}
      </div>
      {seeking ? (
        <p className="seek-banner" role="status">
          {seekingLabel}
        </p>
      ) : null}
    </div>
  )
}

/** The hover text of a message row: what about it is not as it was. */
function rowTitle(inContext: boolean, notInFile: boolean): string | undefined {
  const notes = [inContext ? '' : 'Compacted away: the model no longer sees this message', notInFile ? 'The agent’s file no longer holds this message; Retrace kept it' : ''].filter(Boolean)
  return notes.length > 0 ? notes.join('. ') : undefined
}
