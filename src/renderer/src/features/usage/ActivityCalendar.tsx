import type { UsageRow } from '../../../../shared/contract'
import { formatCost, formatCount } from '../../lib/format'

export type CalendarMetric = 'tokens' | 'cost'

const CELL = 11
const GAP = 2
const WEEKS = 53
const LEFT = 28
const TOP = 14
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** `YYYY-MM-DD` of a local date, as the contract's days are. */
export function dayKey(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`
}

function rowTokens(row: UsageRow): number {
  return row.inputTokens + row.outputTokens + row.cacheReadTokens + row.cacheWriteTokens
}

/** 0 for nothing, else 1–4 by where the value falls among the busy days (quartiles), as GitHub's calendar shades. */
function levels(values: number[]): (value: number) => number {
  const sorted = values.filter((value) => value > 0).sort((a, b) => a - b)
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0
  const cuts = [at(0.25), at(0.5), at(0.75)]
  return (value) => (value <= 0 ? 0 : 1 + cuts.filter((cut) => value > cut).length)
}

/**
 * A year of days as GitHub draws contributions: a column per week (Sunday on top), each day shaded
 * by its tokens or its cost, ending with the week of `lastDay`. Each cell's tooltip gives the day's figures.
 */
export function ActivityCalendar({ days, lastDay, metric }: { days: readonly UsageRow[]; lastDay: Date; metric: CalendarMetric }) {
  const byKey = new Map(days.map((row) => [row.key, row]))
  const valueOf = (row: UsageRow | undefined) => (row === undefined ? 0 : metric === 'cost' ? (row.costUsd ?? 0) : rowTokens(row))
  const level = levels(days.map((row) => valueOf(row)))
  const end = new Date(lastDay.getFullYear(), lastDay.getMonth(), lastDay.getDate() + (6 - lastDay.getDay()))
  const start = new Date(end.getFullYear(), end.getMonth(), end.getDate() - WEEKS * 7 + 1)
  const cells: { key: string; x: number; y: number; level: number; title: string }[] = []
  const months: { label: string; x: number }[] = []
  for (let index = 0; index < WEEKS * 7; index++) {
    const date = new Date(start.getFullYear(), start.getMonth(), start.getDate() + index)
    if (date > lastDay) break
    const week = Math.floor(index / 7)
    const key = dayKey(date)
    const row = byKey.get(key)
    if (date.getDate() === 1 && week < WEEKS - 1) months.push({ label: MONTHS[date.getMonth()] ?? '', x: LEFT + week * (CELL + GAP) })
    const title = row ? `${key}: ${formatCount(rowTokens(row))} tokens, ${row.costUsd === null ? 'no known cost' : formatCost(row.costUsd)}` : `${key}: no usage`
    cells.push({ key, x: LEFT + week * (CELL + GAP), y: TOP + date.getDay() * (CELL + GAP), level: level(valueOf(row)), title })
  }
  const width = LEFT + WEEKS * (CELL + GAP)
  const height = TOP + 7 * (CELL + GAP)
  return (
    <figure className="usage-calendar" data-testid="usage-calendar">
      <svg width={width} height={height} role="img" aria-label={`Usage per day, by ${metric}, the year to ${dayKey(lastDay)}`}>
        {months.map((month) => (
          <text key={`${month.label}-${month.x}`} x={month.x} y={10} className="usage-calendar-label">
            {month.label}
          </text>
        ))}
        {['Mon', 'Wed', 'Fri'].map((label, i) => (
          <text key={label} x={0} y={TOP + (1 + 2 * i) * (CELL + GAP) + CELL - 2} className="usage-calendar-label">
            {label}
          </text>
        ))}
        {cells.map((cell) => (
          <rect key={cell.key} x={cell.x} y={cell.y} width={CELL} height={CELL} rx={2} className={`usage-day level-${cell.level}`} data-day={cell.key} data-level={cell.level}>
            <title>{cell.title}</title>
          </rect>
        ))}
      </svg>
      <figcaption className="usage-calendar-legend muted">
        Less
        {[0, 1, 2, 3, 4].map((n) => (
          <svg key={n} width={CELL} height={CELL} aria-hidden="true">
            <rect width={CELL} height={CELL} rx={2} className={`usage-day level-${n}`} />
          </svg>
        ))}
        More ({metric === 'cost' ? 'cost' : 'tokens'} per day)
      </figcaption>
    </figure>
  )
}
