import type { SessionKind } from '../../../shared/contract'

/** What the workspace's sessions are narrowed to (held by filters-store.ts; pure here, so it tests without a window). */
export interface SessionFilterState {
  /** Text: the list searches titles and messages on the server; the graph matches titles. */
  query: string
  source: string | null
  /** Local calendar days, `YYYY-MM-DD`, inclusive; a session matches when it ran on any day of the range. */
  from: string | null
  until: string | null
  /** Only sessions whose turns changed files. */
  changedFiles: boolean
  /** Only branches (forks, in Retrace or inside the agent). */
  branchesOnly: boolean
  /** The graph shows only this session, its ancestors and its descendants. */
  focusId: string | null
}

export const NO_FILTERS: SessionFilterState = { query: '', source: null, from: null, until: null, changedFiles: false, branchesOnly: false, focusId: null }

/** Whether any filter (other than focus) narrows the sessions. */
export function isFiltered(filters: SessionFilterState): boolean {
  return filters.query.trim() !== '' || filters.source !== null || filters.from !== null || filters.until !== null || filters.changedFiles || filters.branchesOnly
}

/** What a filter reads of a session: a TreeNode has all of it; a SessionSummary all but `filesChanged`. */
export interface FilterableSession {
  title: string
  source: string
  kind: SessionKind
  createdAt: number
  updatedAt: number
  filesChanged?: number
}

/**
 * Whether a session passes the filters, all but the text on the server's side: `withText` false
 * leaves the text to the caller (the list sends it to `sessions.list`, which also searches messages).
 */
export function matchesFilters(session: FilterableSession, filters: SessionFilterState, withText = true): boolean {
  if (filters.source !== null && session.source !== filters.source) return false
  if (filters.branchesOnly && session.kind !== 'branch') return false
  if (filters.changedFiles && session.filesChanged !== undefined && session.filesChanged === 0) return false
  if (filters.from !== null && session.updatedAt < startOfDay(filters.from)) return false
  if (filters.until !== null && session.createdAt >= startOfDay(filters.until, 1)) return false
  const text = filters.query.trim().toLowerCase()
  if (withText && text !== '' && !session.title.toLowerCase().includes(text)) return false
  return true
}

/** Local midnight of a `YYYY-MM-DD` day (the date inputs' value), or of a day that many after it (DST-safe). */
function startOfDay(day: string, daysAfter = 0): number {
  const [year, month, date] = day.split('-').map(Number)
  return new Date(year ?? 1970, (month ?? 1) - 1, (date ?? 1) + daysAfter).getTime()
}
