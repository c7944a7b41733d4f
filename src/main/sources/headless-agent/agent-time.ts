/**
 * The headless agent's times. Its `sessions.db` DATETIME columns hold whatever go-sqlite3 wrote
 * for a Go `time.Time`: normally text such as `2026-03-10 09:14:02.418435873-04:00` (space,
 * nanoseconds, the local offset). Older or hand-edited rows may hold RFC 3339
 * (`2026-03-12T21:00:00Z`), Go's `time.String()` form (`… -0400 EDT`) or INTEGER unix seconds, so
 * all of those are read; anything else is "unknown" (undefined), never a guessed time.
 */

const TEXT_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?\s*(Z|[+-]\d{2}:?\d{2})?(?:\s+[A-Z]{2,5})?(?:\s+m=[+-][\d.]+)?$/i

/** Milliseconds since the epoch, or undefined when the value is not a time the agent writes. */
export function parseAgentTime(value: unknown): number | undefined {
  if (typeof value === 'number') return fromEpochNumber(value)
  if (typeof value !== 'string') return undefined
  const text = value.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return fromEpochNumber(Number(text))
  const match = TEXT_TIME.exec(text)
  if (!match) return undefined
  const [, date, clock, fraction, zone] = match
  const millis = fraction ? `.${fraction.slice(0, 3).padEnd(3, '0')}` : ''
  const seconds = clock?.length === 5 ? ':00' : ''
  // No zone: SQLite's own CURRENT_TIMESTAMP, which is UTC.
  const offset = !zone || zone.toUpperCase() === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`
  const time = Date.parse(`${date}T${clock}${seconds}${millis}${offset}`)
  return Number.isFinite(time) && time >= 0 ? time : undefined
}

/** Unix seconds (what a Go `time.Unix()` stores); values this large can only be milliseconds. */
function fromEpochNumber(value: number): number | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined
  return Math.round(value < 1e11 ? value * 1000 : value)
}

/**
 * A short start time for a session title: the wall-clock time as the agent stored it (its own
 * local time, which is what its user saw), else the parsed instant in UTC.
 */
export function shortTime(value: unknown, parsed: number | undefined): string {
  if (typeof value === 'string') {
    const match = TEXT_TIME.exec(value.trim())
    if (match?.[4] && match[4].toUpperCase() !== 'Z') return `${match[1]} ${match[2]?.slice(0, 5)}`
  }
  return parsed === undefined ? 'unknown start' : `${new Date(parsed).toISOString().slice(0, 16).replace('T', ' ')} UTC`
}
