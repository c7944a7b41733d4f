import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState, type RefObject } from 'react'
import type { TranscriptKind } from '../../../../shared/contract'
import { call } from '../../api/client'
import { errorMessage } from '../../lib/errors'
import { useDebouncedValue } from '../../lib/use-debounced-value'
import { useUiStore } from '../../state/ui-store'
import { firstMatchFrom, matchLabel, stepMatch, type FindMatch } from './find-model'
import type { FindView, TranscriptNav } from './MessageList'
import { transcriptKeys } from '../../state/query-keys'

/**
 * Find in the session (Ctrl/Cmd+F): the server looks through the whole transcript, pages not
 * loaded yet included, and answers with the rows that match; Enter and Shift+Enter walk them,
 * loading pages up to each one. Returns what the list needs to highlight.
 */
export function useFind(sessionId: string, mode: TranscriptKind, navRef: RefObject<TranscriptNav | null>) {
  const [open, setOpen] = useState(false)
  const [text, setText] = useState('')
  const query = useDebouncedValue(text, 200)
  const searchable = query.trim().length > 0
  const focusInSession = useUiStore((state) => state.focusInSession)
  const result = useQuery({
    queryKey: [...transcriptKeys.session(sessionId), 'find', mode, query],
    queryFn: () => call('transcript.find', { sessionId, query, transcript: mode }),
    enabled: open && searchable,
    placeholderData: keepPreviousData
  })
  const matches: FindMatch[] = open && searchable ? (result.data?.items ?? []) : []
  const [index, setIndex] = useState(-1)
  const currentSeq = useRef<number | null>(null)
  const pickedFor = useRef<string | null>(null)

  const go = (next: number, list: readonly FindMatch[] = matches) => {
    setIndex(next)
    const match = list[next]
    currentSeq.current = match?.seq ?? null
    if (match) focusInSession({ sessionId, kind: 'message', seq: match.seq, flash: false })
  }

  useEffect(() => {
    const data = result.data
    if (!open || !searchable || !data || result.isPlaceholderData) return
    const searched = `${mode}\u0000${query}`
    if (pickedFor.current !== searched) {
      // A new search (or the other transcript) starts at the first match where the reader is.
      pickedFor.current = searched
      const start = firstMatchFrom(data.items, navRef.current?.topSeq() ?? null)
      setIndex(start)
      currentSeq.current = data.items[start]?.seq ?? null
      const match = data.items[start]
      if (match) focusInSession({ sessionId, kind: 'message', seq: match.seq, flash: false })
    } else {
      // The same search, refreshed (the session grew): stay on the same match.
      setIndex(data.items.findIndex((match) => match.seq === currentSeq.current))
    }
  }, [result.data, result.isPlaceholderData, open, searchable, query, mode, navRef, focusInSession, sessionId])

  const view: FindView | null = open && searchable ? { query, currentSeq: matches[index]?.seq ?? null } : null
  return {
    open,
    text,
    view,
    matches,
    index,
    truncated: result.data?.truncated ?? false,
    pending: open && (text !== query || (searchable && result.isFetching && result.isPlaceholderData) || (searchable && result.isPending)),
    error: result.isError ? result.error : null,
    show: () => setOpen(true),
    hide: () => {
      setOpen(false)
      pickedFor.current = null
    },
    setText,
    step: (direction: 1 | -1) => go(stepMatch(index, matches.length, direction))
  }
}

export type FindState = ReturnType<typeof useFind>

/** The find bar over the top right of the transcript. */
export function FindBar({ find, onClose }: { find: FindState; onClose: () => void }) {
  const inputRef = useRef<HTMLInputElement>(null)
  useEffect(() => {
    inputRef.current?.focus()
    inputRef.current?.select()
  }, [])
  const searchable = find.text.trim().length > 0
  const status = !searchable ? '' : find.error ? 'Search failed' : find.pending && find.matches.length === 0 ? 'Searching…' : matchLabel(find.index, find.matches.length, find.truncated)
  return (
    <div className="find-bar" role="search" data-testid="find-bar">
      <input
        ref={inputRef}
        data-find-input
        className="input find-input"
        data-testid="find-input"
        type="text"
        autoComplete="off"
        spellCheck={false}
        placeholder="Find in this session"
        aria-label="Find in this session"
        title="Searches the whole session, messages not loaded yet included. Enter: next · Shift+Enter: previous · Esc: close"
        value={find.text}
        onChange={(event) => find.setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault()
            find.step(event.shiftKey ? -1 : 1)
          } else if (event.key === 'Escape') {
            event.preventDefault()
            onClose()
          }
        }}
      />
      <span className="find-count" data-testid="find-count" role="status" aria-live="polite" title={find.error ? errorMessage(find.error) : undefined}>
        {status}
      </span>
      <button type="button" className="icon-button small" data-testid="find-prev" aria-label="Previous match" title="Previous match (Shift+Enter)" disabled={find.matches.length === 0} onClick={() => find.step(-1)}>
        <span aria-hidden="true">↑</span>
      </button>
      <button type="button" className="icon-button small" data-testid="find-next" aria-label="Next match" title="Next match (Enter)" disabled={find.matches.length === 0} onClick={() => find.step(1)}>
        <span aria-hidden="true">↓</span>
      </button>
      <button type="button" className="icon-button small" data-testid="find-close" aria-label="Close find" title="Close (Esc)" onClick={onClose}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  )
}
