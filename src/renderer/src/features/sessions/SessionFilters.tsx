import { useEffect, useId, useRef } from 'react'
import { isFiltered, useSessionFilters } from '../../state/filters-store'

/**
 * The filter bar of the list and the graph: text, source, a date range, "changed files" and
 * "branches only". Its state is the one filter store (filters-store.ts), so both views agree.
 * `/` anywhere but a text field puts the cursor in the text.
 */
export function SessionFilters({ sources }: { sources: string[] }) {
  const filters = useSessionFilters()
  const searchId = useId()
  const sourceId = useId()
  const input = useRef<HTMLInputElement>(null)
  useSlashToFilter(input)

  return (
    <div className="session-filters" data-testid="session-filters">
      <div className="session-filters-row">
        <label htmlFor={searchId} className="visually-hidden">
          Filter sessions
        </label>
        <input
          ref={input}
          id={searchId}
          type="search"
          className="input"
          data-testid="session-search"
          placeholder="Filter sessions…  ( / )"
          value={filters.query}
          onChange={(event) => filters.setQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && filters.query) {
              event.preventDefault()
              filters.setQuery('')
            }
          }}
          spellCheck={false}
          autoComplete="off"
        />
        <label htmlFor={sourceId} className="visually-hidden">
          Source
        </label>
        <select id={sourceId} className="select" data-testid="source-filter" value={filters.source ?? ''} onChange={(event) => filters.setSource(event.target.value || null)}>
          <option value="">All sources</option>
          {sources.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div className="session-filters-row">
        <DateRange />
        <Toggle testId="filter-changed-files" label="Changed files" title="Only sessions whose turns changed files" on={filters.changedFiles} set={filters.setChangedFiles} />
        <Toggle testId="filter-branches" label="Branches only" title="Only branches (forks in Retrace or rewinds inside the agent)" on={filters.branchesOnly} set={filters.setBranchesOnly} />
        {isFiltered(filters) ? (
          <button type="button" className="button ghost small" data-testid="filters-clear" onClick={() => filters.clear()}>
            Clear
          </button>
        ) : null}
      </div>
    </div>
  )
}

function DateRange() {
  const from = useSessionFilters((state) => state.from)
  const until = useSessionFilters((state) => state.until)
  const setRange = useSessionFilters((state) => state.setRange)
  return (
    <span className="session-filters-dates">
      <input type="date" className="input small" data-testid="filter-from" aria-label="Ran on or after" title="Ran on or after" value={from ?? ''} max={until ?? undefined} onChange={(event) => setRange({ from: event.target.value || null })} />
      <span aria-hidden="true">–</span>
      <input type="date" className="input small" data-testid="filter-until" aria-label="Ran on or before" title="Ran on or before" value={until ?? ''} min={from ?? undefined} onChange={(event) => setRange({ until: event.target.value || null })} />
    </span>
  )
}

function Toggle({ testId, label, title, on, set }: { testId: string; label: string; title: string; on: boolean; set: (on: boolean) => void }) {
  return (
    <button type="button" className="button small filter-toggle" data-testid={testId} aria-pressed={on} title={title} onClick={() => set(!on)}>
      {label}
    </button>
  )
}

function typingIn(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || target.closest('input, textarea, select, [contenteditable="true"]') !== null)
}

/** `/` outside a text field (and outside a dialog) focuses the filter text, as in most lists. */
function useSlashToFilter(input: React.RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return
      if (document.querySelector('dialog[open]')) return
      event.preventDefault()
      input.current?.focus()
      input.current?.select()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [input])
}
