/** A mark on the graph's time axis: a day (above its first, newest row) or an hour (beside its first row). */
export interface TimeTick {
  y: number
  kind: 'day' | 'hour'
  label: string
  /** The local day or hour it marks (ms), for tooltips and tests. */
  at: number
}

const dayLabel = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' })
const dayLabelWithYear = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' })
const hourLabel = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' })

function startOfDay(at: number): number {
  const date = new Date(at)
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime()
}

function startOfHour(at: number): number {
  const date = new Date(at)
  date.setMinutes(0, 0, 0)
  return date.getTime()
}

/** "Today", "Yesterday", "Mon, 7 Dec" (with the year when it is not this year's). */
export function dayName(day: number, now = Date.now()): string {
  const today = startOfDay(now)
  if (day === today) return 'Today'
  if (day === startOfDay(today - 1)) return 'Yesterday'
  return new Date(day).getFullYear() === new Date(now).getFullYear() ? dayLabel.format(day) : dayLabelWithYear.format(day)
}

/**
 * The marks for rows laid out newest first: a day mark in the `dayGap` above a day's first row,
 * an hour mark beside each row that begins a new hour.
 */
export function timeTicks(rows: readonly { at: number; y: number }[], dayGap: number, now = Date.now()): TimeTick[] {
  const ticks: TimeTick[] = []
  let day: number | null = null
  let hour: number | null = null
  for (const row of rows) {
    const rowDay = startOfDay(row.at)
    const rowHour = startOfHour(row.at)
    if (rowDay !== day) ticks.push({ y: row.y - dayGap, kind: 'day', label: dayName(rowDay, now), at: rowDay })
    if (rowDay !== day || rowHour !== hour) ticks.push({ y: row.y, kind: 'hour', label: hourLabel.format(rowHour), at: rowHour })
    day = rowDay
    hour = rowHour
  }
  return ticks
}
