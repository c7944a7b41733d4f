import { useEffect, useMemo, useRef, type RefObject } from 'react'
import { isRetraceError } from '../../../../shared/contract'
import { useUiStore } from '../../state/ui-store'
import { ErrorState, SkeletonRows } from '../../ui/States'
import { FileDialogHost } from '../files'
import { ReplayBar, useReplayStore } from '../replay'
import { DialogHost, useDialogStore } from '../checkpoints'
import { useSessionDetail } from '../sessions'
import { DisclosureProvider } from '../../ui/disclosure'
import { FindBar, useFind } from './FindBar'
import { JumpToTurn } from './JumpToTurn'
import { MessageList, type TranscriptNav } from './MessageList'
import { useTranscript } from './queries'
import { TranscriptHeader } from './TranscriptHeader'

/** The right-hand side: the selected session's transcript, or a hint to pick one. */
export function TranscriptPane() {
  const sessionId = useUiStore((state) => state.sessionId)
  if (!sessionId) {
    return (
      <div className="transcript-placeholder" data-testid="transcript-placeholder">
        <p className="state-title">Select a session</p>
        <p className="muted">Pick one on the left (or use ↑ and ↓ in the list) to read its transcript.</p>
      </div>
    )
  }
  return (
    <>
      <Transcript key={sessionId} sessionId={sessionId} />
      <DialogHost />
    </>
  )
}

function Transcript({ sessionId }: { sessionId: string }) {
  const detail = useSessionDetail(sessionId)
  const mode = useUiStore((state) => state.transcriptMode)
  const selectSession = useUiStore((state) => state.selectSession)
  const focusInSession = useUiStore((state) => state.focusInSession)
  const sectionRef = useRef<HTMLElement>(null)
  const navRef = useRef<TranscriptNav | null>(null)
  const jumpRef = useRef<HTMLInputElement>(null)
  const find = useFind(sessionId, mode, navRef)
  const { show: showFind } = find
  const replaying = useReplayStore((state) => state.sessionId === sessionId)
  // Leaving the session (or the app) ends its replay.
  useEffect(() => () => {
    if (useReplayStore.getState().sessionId === sessionId) useReplayStore.getState().stop()
  }, [sessionId])

  useTranscriptKeys({ sectionRef, navRef, jumpRef, onFind: showFind })

  if (detail.isError) {
    return (
      <section className="transcript" data-testid="transcript" aria-label="Transcript">
        {isRetraceError(detail.error) && detail.error.code === 'NOT_FOUND' ? (
          <ErrorState title="Cannot show this session" error={detail.error} onRetry={() => selectSession(null)} actionLabel="Close it" />
        ) : (
          <ErrorState title="Cannot show this session" error={detail.error} onRetry={() => void detail.refetch()} />
        )}
      </section>
    )
  }
  const closeFind = () => {
    find.hide()
    navRef.current?.focusList()
  }
  const tools = detail.data ? (
    <>
      <JumpToTurn
        turnCount={detail.data.turnCount}
        inputRef={jumpRef}
        onJump={(turn) => focusInSession({ sessionId, kind: 'turn', turn })}
        onDone={() => navRef.current?.focusList()}
      />
      <button
        type="button"
        className="button small"
        data-testid="find-open"
        aria-label="Find in this session"
        title="Find in this session (Ctrl+F or ⌘F)"
        aria-expanded={find.open}
        onClick={showFind}
      >
        <SearchIcon /> Find
      </button>
    </>
  ) : null
  // Less frequent: in the header's Session menu.
  const more = (
    <>
      <button
        type="button"
        className="button small"
        data-testid="replay-open"
        aria-pressed={replaying}
        title="Play the session back message by message, with each turn's files"
        onClick={() => (replaying ? useReplayStore.getState().stop() : useReplayStore.getState().start(sessionId))}
      >
        {replaying ? 'Stop the replay' : 'Replay'}
      </button>
      <button
        type="button"
        className="button small"
        data-testid="export-open"
        title="Export this session as an HTML page, Markdown or JSON (reviews secrets first)"
        onClick={() => useDialogStore.getState().open({ kind: 'export', sessionId, throughTurn: null })}
      >
        Export…
      </button>
    </>
  )
  return (
    <section ref={sectionRef} className="transcript" data-testid="transcript" aria-label={detail.data ? `Transcript: ${detail.data.title}` : 'Transcript'}>
      {detail.data ? <TranscriptHeader detail={detail.data} tools={tools} more={more} /> : <SkeletonRows count={2} className="header-skeleton" />}
      {replaying && detail.data ? <Replay sessionId={sessionId} turnCount={detail.data.turnCount} /> : null}
      <div className="transcript-body">
        <DisclosureProvider key={mode}>
          <MessageList key={mode} sessionId={sessionId} mode={mode} find={find.view} navRef={navRef} />
        </DisclosureProvider>
        {find.open ? <FindBar find={find} onClose={closeFind} /> : null}
      </div>
      {/* "Restore this version" in a file's history opens the one-file rewind over the file dialog. */}
      <FileDialogHost sessionId={sessionId} onRestore={(request) => useDialogStore.getState().open({ kind: 'restore', sessionId, ...request })} />
    </section>
  )
}

/** The replay bar, fed by the same transcript query (same pages, same cache) as the list below it. */
function Replay({ sessionId, turnCount }: { sessionId: string; turnCount: number }) {
  const mode = useUiStore((state) => state.transcriptMode)
  const transcript = useTranscript(sessionId, mode)
  const messages = useMemo(() => transcript.data?.pages.flatMap((page) => page.items) ?? [], [transcript.data])
  const source = {
    messages,
    total: transcript.data?.pages.at(-1)?.total ?? 0,
    hasNextPage: transcript.hasNextPage,
    isFetchingNextPage: transcript.isFetchingNextPage,
    fetchNextPage: transcript.fetchNextPage
  }
  return <ReplayBar sessionId={sessionId} turnCount={turnCount} source={source} />
}

/** Text fields and the like, where letters are typed rather than used as shortcuts. */
function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || target.closest('input, textarea, select, [contenteditable="true"]') !== null
}

/**
 * The transcript's keys, while no dialog is open: Ctrl/Cmd+F opens the find bar (unless the
 * caret is in another feature's text field, such as the global search), `g` goes to the
 * jump-to-turn field, `j` / `k` move to the next / previous turn (not while typing).
 */
function useTranscriptKeys({
  sectionRef,
  navRef,
  jumpRef,
  onFind
}: {
  sectionRef: RefObject<HTMLElement | null>
  navRef: RefObject<TranscriptNav | null>
  jumpRef: RefObject<HTMLInputElement | null>
  onFind: () => void
}) {
  const onFindRef = useRef(onFind)
  useEffect(() => {
    onFindRef.current = onFind
  })
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || document.querySelector('dialog[open]')) return
      const withModifier = event.ctrlKey || event.metaKey
      if (withModifier && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'f') {
        const inTranscript = event.target instanceof Node && sectionRef.current?.contains(event.target) === true
        if (isEditable(event.target) && !inTranscript) return
        event.preventDefault()
        onFindRef.current()
        // Already open: select its text again, as browsers do.
        const input = sectionRef.current?.querySelector<HTMLInputElement>('[data-find-input]')
        input?.focus()
        input?.select()
        return
      }
      if (withModifier || event.altKey || isEditable(event.target)) return
      if (event.key === 'j' || event.key === 'k') {
        event.preventDefault()
        navRef.current?.stepTurn(event.key === 'j' ? 1 : -1)
      } else if (event.key === 'g' && jumpRef.current) {
        event.preventDefault()
        jumpRef.current.focus()
        jumpRef.current.select()
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [sectionRef, navRef, jumpRef])
}

function SearchIcon() {
  return (
    <svg width="12" height="12" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <circle cx="7" cy="7" r="4.8" fill="none" stroke="currentColor" strokeWidth="1.7" />
      <path d="M10.6 10.6 14.5 14.5" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" />
    </svg>
  )
}
