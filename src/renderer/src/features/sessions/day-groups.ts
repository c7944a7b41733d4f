import type { SessionTreeRow } from './session-tree-rows'

/** What grouping reads of a row (a SessionTreeRow has it). */
interface Timed {
  depth: number
  session: { id: string; updatedAt: number }
}

export interface DayHeader {
  kind: 'day'
  key: string
  label: string
  /** Sessions under it (sub-sessions included). */
  count: number
}

/** One line of the session list: a day's header, or a session (with its index among the sessions, for the keyboard). */
export type SessionListItem<R extends Timed = SessionTreeRow> = DayHeader | { kind: 'session'; key: string; row: R; index: number }

const WEEK_DAYS = 6

/**
 * What a day's header says, seen from `now` (local time): "Today", "Yesterday", the weekday for
 * the rest of the last week, then the date (with its year when not this one).
 */
export function dayLabel(at: number, now: number = Date.now()): string {
  const days = daysBetween(at, now)
  if (days === 0) return 'Today'
  if (days === 1) return 'Yesterday'
  const date = new Date(at)
  if (days > 1 && days <= WEEK_DAYS) return date.toLocaleDateString(undefined, { weekday: 'long' })
  const sameYear = date.getFullYear() === new Date(now).getFullYear()
  return date.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short', ...(sameYear ? {} : { year: 'numeric' }) })
}

/**
 * The list's rows under a header per day of last activity, newest first as the rows come. A
 * tree of sessions stays whole under its top row's day (a sub-agent is shown under its parent,
 * whenever it ran), so a day header only ever comes before a top-level row.
 */
export function groupByDay<R extends Timed>(rows: readonly R[], now: number = Date.now()): SessionListItem<R>[] {
  const items: SessionListItem<R>[] = []
  let current: DayHeader | null = null
  rows.forEach((row, index) => {
    if (row.depth === 0 || current === null) {
      const key = dayKey(row.session.updatedAt)
      if (current?.key !== key) {
        current = { kind: 'day', key, label: dayLabel(row.session.updatedAt, now), count: 0 }
        items.push(current)
      }
    }
    if (current) current.count += 1
    items.push({ kind: 'session', key: row.session.id, row, index })
  })
  return items
}

function dayKey(at: number): string {
  const date = new Date(at)
  return `day-${date.getFullYear()}-${date.getMonth() + 1}-${date.getDate()}`
}

/** Whole local calendar days from `at` to `now` (DST-safe: counted on midnights, not hours). */
function daysBetween(at: number, now: number): number {
  const start = (time: number) => {
    const date = new Date(time)
    return Date.UTC(date.getFullYear(), date.getMonth(), date.getDate())
  }
  return Math.round((start(now) - start(at)) / 86_400_000)
}
