import { useVirtualizer } from '@tanstack/react-virtual'
import { useCallback, useEffect, useMemo, useRef, type KeyboardEvent } from 'react'
import { useDebouncedValue } from '../../lib/use-debounced-value'
import { useUiStore } from '../../state/ui-store'
import { isFiltered, matchesFilters, useSessionFilters } from '../../state/filters-store'
import { EmptyState, ErrorState, SkeletonRows } from '../../ui/States'
import { WhereLooked } from '../sources'
import { useSessionList } from './queries'
import { SessionRow } from './SessionRow'
import { sessionTreeRows } from './session-tree-rows'
import { groupByDay, type DayHeader } from './day-groups'
import { WarmupToggle } from './WarmupToggle'

const ROW_HEIGHT = 56
const DAY_HEIGHT = 28
const SEARCH_DEBOUNCE_MS = 200
/** Start loading the next page this many rows before the end comes into view. */
const PREFETCH_ROWS = 20

/**
 * The workspace's sessions as a virtualized listbox (thousands of rows stay cheap), loading
 * further keyset pages as the user scrolls. The loaded sessions show as a tree: forks and
 * sub-agents under their parent, under a header per day of last activity. Up/Down (and Home/End)
 * move the selection, Enter opens the first session when none is; `/` focuses the filter (SessionFilters).
 */
export function SessionList({ workspaceId }: { workspaceId: number }) {
  const filters = useSessionFilters()
  const { query: rawQuery, source } = filters
  const selectedId = useUiStore((state) => state.sessionId)
  const selectSession = useUiStore((state) => state.selectSession)
  const warmups = useUiStore((state) => state.showWarmups)
  const query = useDebouncedValue(rawQuery, SEARCH_DEBOUNCE_MS)
  const list = useSessionList(workspaceId, { query, source, warmups })
  const hiddenWarmups = list.data?.pages[0]?.hiddenWarmups ?? 0
  const scrollRef = useRef<HTMLDivElement>(null)

  // The text and source go to the server (it searches messages too); the rest is checked here.
  const rows = useMemo(
    () => sessionTreeRows((list.data?.pages.flatMap((page) => page.items) ?? []).filter((session) => matchesFilters(session, filters, false))),
    [list.data, filters]
  )
  const items = useMemo(() => groupByDay(rows), [rows])
  // Where each session's line is among the list's lines (headers in between).
  const lineOfRow = useMemo(() => items.flatMap((item, line) => (item.kind === 'session' ? [line] : [])), [items])
  const selectedIndex = rows.findIndex((row) => row.session.id === selectedId)
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list

  // The React Compiler is not used in this build, so its memoization caveat does not apply.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length + (hasNextPage ? 1 : 0),
    getScrollElement: () => scrollRef.current,
    estimateSize: (line) => (items[line]?.kind === 'day' ? DAY_HEIGHT : ROW_HEIGHT),
    getItemKey: (line) => items[line]?.key ?? 'loading',
    overscan: 8
  })
  const virtualRows = virtualizer.getVirtualItems()
  const lastIndex = virtualRows.at(-1)?.index ?? -1

  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= items.length - PREFETCH_ROWS) void fetchNextPage()
  }, [hasNextPage, isFetchingNextPage, lastIndex, items.length, fetchNextPage])

  // Bring the selection into view when it changes from elsewhere (keyboard, a link in the
  // transcript header, a reload) — once per selection, so later refetches never yank the list.
  const scrolledTo = useRef<string | null>(null)
  useEffect(() => {
    if (selectedId === null || selectedIndex < 0 || scrolledTo.current === selectedId) return
    scrolledTo.current = selectedId
    virtualizer.scrollToIndex(lineOfRow[selectedIndex] ?? selectedIndex, { align: 'auto' })
  }, [selectedId, selectedIndex, lineOfRow, virtualizer])

  // A new filter is a new list: start it from the top (but not on mount, where a restored
  // selection may just have been scrolled into view).
  const filtersKey = `${source ?? ''}\u0000${query}\u0000${warmups}\u0000${filters.from}\u0000${filters.until}\u0000${filters.branchesOnly}`
  const shownFilters = useRef(filtersKey)
  useEffect(() => {
    if (shownFilters.current === filtersKey) return
    shownFilters.current = filtersKey
    scrollRef.current?.scrollTo({ top: 0 })
  }, [filtersKey])

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (rows.length === 0) return
    const moves: Record<string, number> = {
      ArrowDown: selectedIndex < 0 ? 0 : Math.min(rows.length - 1, selectedIndex + 1),
      ArrowUp: selectedIndex < 0 ? 0 : Math.max(0, selectedIndex - 1),
      Home: 0,
      End: rows.length - 1,
      // Selecting opens the transcript: Enter opens the selected one, or the first.
      Enter: Math.max(0, selectedIndex)
    }
    const next = moves[event.key]
    if (next === undefined) return
    event.preventDefault()
    const target = rows[next]
    if (!target) return
    selectSession(target.session.id)
  }

  const onSelect = useCallback((sessionId: string) => selectSession(sessionId), [selectSession])

  if (list.isPending) return <SkeletonRows count={8} className="session-skeleton" />
  if (list.isError) return <ErrorState title="Could not load sessions" error={list.error} onRetry={() => void list.refetch()} />
  if (rows.length === 0) {
    const filtered = isFiltered(filters)
    return filtered ? (
      <EmptyState title="No sessions match">
        <p>Nothing in this workspace matches the filter.</p>
        <button
          type="button"
          className="button"
          onClick={() => filters.clear()}
        >
          Clear filters
        </button>
      </EmptyState>
    ) : hiddenWarmups > 0 ? (
      <EmptyState title="Only warm-ups here">
        <p>This folder holds no session of yours yet, only Claude Code&apos;s start-up agents.</p>
        <WarmupToggle hidden={hiddenWarmups} />
      </EmptyState>
    ) : (
      <EmptyState title="No sessions in this workspace yet">
        <WhereLooked workspaceId={workspaceId} />
      </EmptyState>
    )
  }

  return (
    <>
      {hiddenWarmups > 0 || warmups ? (
        <div className="session-list-notes">
          <WarmupToggle hidden={hiddenWarmups} />
        </div>
      ) : null}
      <div
        ref={scrollRef}
        className={`session-list${list.isPlaceholderData ? ' refreshing' : ''}`}
        data-testid="session-list"
        role="listbox"
        aria-label="Sessions by day, newest first, forks and sub-agents under their parent"
        aria-busy={list.isFetching}
        aria-activedescendant={selectedIndex >= 0 ? optionId(selectedIndex) : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        <div className="virtual-space" style={{ height: virtualizer.getTotalSize() }}>
          {virtualRows.map((line) => {
            const item = items[line.index]
            return (
              <div key={line.key} className="virtual-row" style={{ transform: `translateY(${line.start}px)`, height: line.size }}>
                {item?.kind === 'day' ? (
                  <DayLine day={item} />
                ) : item ? (
                  <SessionRow row={item.row} optionId={optionId(item.index)} selected={item.row.session.id === selectedId} onSelect={onSelect} />
                ) : (
                  <div className="session-row loading-row" aria-hidden="true">
                    Loading more…
                  </div>
                )}
              </div>
            )
          })}
        </div>
      </div>
    </>
  )
}

/** A day's header: not an option (the keyboard moves over sessions only). */
function DayLine({ day }: { day: DayHeader }) {
  return (
    <div className="session-day" role="presentation" data-testid="session-day">
      <span className="session-day-label">{day.label}</span>
      <span className="session-day-count">{day.count}</span>
    </div>
  )
}

function optionId(index: number): string {
  return `session-option-${index}`
}
