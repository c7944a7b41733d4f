import type { Usage } from '../../../shared/contract'

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
const timeOnly = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 })

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000]
]

/** "5 minutes ago", "yesterday", "in 2 days" (clocks disagree; future times happen). */
export function relativeTime(at: number, now: number = Date.now()): string {
  const diff = at - now
  for (const [unit, size] of UNITS) {
    if (Math.abs(diff) >= size) return relative.format(Math.round(diff / size), unit)
  }
  return 'just now'
}

export function formatDateTime(at: number): string {
  return dateTime.format(at)
}

export function formatTime(at: number): string {
  return timeOnly.format(at)
}

/** 1234 → "1.2K": token counts are read at a glance, not to the unit. */
export function formatCount(value: number): string {
  return compact.format(value)
}

export function formatCost(usd: number): string {
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`
}

/** "4.1K in · 230 out · 3.3K cache read · $0.016" — the parts that are non-zero. */
export function formatUsage(usage: Usage): string {
  const parts = [`${formatCount(usage.inputTokens)} in`, `${formatCount(usage.outputTokens)} out`]
  if (usage.cacheReadTokens > 0) parts.push(`${formatCount(usage.cacheReadTokens)} cache read`)
  if (usage.cacheWriteTokens > 0) parts.push(`${formatCount(usage.cacheWriteTokens)} cache write`)
  if (usage.costUsd !== null) parts.push(formatCost(usage.costUsd))
  return parts.join(' · ')
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`
}
