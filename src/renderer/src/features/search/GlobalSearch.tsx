import { useEffect, useId, useRef, useState } from 'react'
import type { SearchHit } from '../../../../shared/contract'
import { useDebouncedValue } from '../../lib/use-debounced-value'
import { useUiStore } from '../../state/ui-store'
import { SearchResults } from './SearchResults'

const DEBOUNCE_MS = 250

/**
 * Full-text search over every message, across all workspaces or (inside one) just this one.
 * Results drop down under the box; choosing one opens that workspace and session and scrolls
 * the transcript to the message.
 */
export function GlobalSearch({ workspaceId }: { workspaceId?: number }) {
  const [text, setText] = useState('')
  const [open, setOpen] = useState(false)
  const [thisWorkspaceOnly, setThisWorkspaceOnly] = useState(false)
  const openMessage = useUiStore((state) => state.openMessage)
  const query = useDebouncedValue(text.trim(), DEBOUNCE_MS)
  const wrapperRef = useRef<HTMLDivElement>(null)
  const inputId = useId()
  const panelId = useId()
  const scope = workspaceId !== undefined && thisWorkspaceOnly ? workspaceId : null

  useEffect(() => {
    if (!open) return
    const onPointerDown = (event: PointerEvent): void => {
      if (event.target instanceof Node && !wrapperRef.current?.contains(event.target)) setOpen(false)
    }
    document.addEventListener('pointerdown', onPointerDown)
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [open])

  const onOpenHit = (hit: SearchHit): void => {
    setOpen(false)
    openMessage({ workspaceId: hit.workspaceId, sessionId: hit.sessionId, seq: hit.seq })
  }

  const showPanel = open && query !== ''
  return (
    <div
      className="global-search"
      ref={wrapperRef}
      role="search"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          setOpen(false)
          document.getElementById(inputId)?.focus()
        }
      }}
    >
      <label htmlFor={inputId} className="visually-hidden">
        Search all messages
      </label>
      <input
        id={inputId}
        type="search"
        className="input"
        data-testid="global-search"
        placeholder={scope === null ? 'Search messages in all workspaces…' : 'Search messages in this workspace…'}
        value={text}
        onChange={(event) => {
          setText(event.target.value)
          setOpen(true)
        }}
        onFocus={() => setOpen(true)}
        aria-controls={panelId}
        aria-expanded={showPanel}
        spellCheck={false}
        autoComplete="off"
      />
      {workspaceId !== undefined ? (
        <label className="scope-toggle" title="Search only this workspace">
          <input type="checkbox" aria-label="Search only this workspace" checked={thisWorkspaceOnly} onChange={(event) => setThisWorkspaceOnly(event.target.checked)} />
          <span className="scope-label">This workspace</span>
        </label>
      ) : null}
      {showPanel ? (
        <div id={panelId} className="search-panel" role="region" aria-label="Search results">
          <SearchResults query={query} workspaceId={scope} onOpen={onOpenHit} />
        </div>
      ) : null}
    </div>
  )
}
