import { useId } from 'react'
import { useUiStore } from '../../state/ui-store'

/** Text search (title or any message) and source filter for the session list. */
export function SessionFilters({ sources }: { sources: string[] }) {
  const query = useUiStore((state) => state.sessionQuery)
  const source = useUiStore((state) => state.sourceFilter)
  const setQuery = useUiStore((state) => state.setSessionQuery)
  const setSource = useUiStore((state) => state.setSourceFilter)
  const searchId = useId()
  const sourceId = useId()

  return (
    <div className="session-filters">
      <label htmlFor={searchId} className="visually-hidden">
        Filter sessions
      </label>
      <input
        id={searchId}
        type="search"
        className="input"
        data-testid="session-search"
        placeholder="Filter sessions…"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && query) {
            event.preventDefault()
            setQuery('')
          }
        }}
        spellCheck={false}
        autoComplete="off"
      />
      <label htmlFor={sourceId} className="visually-hidden">
        Source
      </label>
      <select
        id={sourceId}
        className="select"
        data-testid="source-filter"
        value={source ?? ''}
        onChange={(event) => setSource(event.target.value || null)}
      >
        <option value="">All sources</option>
        {sources.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </div>
  )
}
