import type { Usage } from '../../../shared/contract'

/**
 * Aider's usage report after each answer (base_coder.py `calculate_and_show_tokens_and_cost`):
 * `Tokens: <sent> sent[, <n> cache write][, <n> cache hit], <received> received.` then, on the
 * same line or the next, `Cost: $<x> message, $<y> session.` (`request` before 0.50; 0.4x wrote
 * `<n> cached` for cache hits). Counts of 1,000 and more are rounded by `format_tokens`
 * (`2.5k`, `12k`): the totals are as close as Aider wrote them. `sent` includes cache writes.
 */
const TOKENS = /^Tokens: ([\d.,]+k?) sent(?:, ([\d.,]+k?) cache write)?(?:, ([\d.,]+k?) (?:cache hit|cached))?, ([\d.,]+k?) received\./
const COST = /Cost: \$([\d.]+) (?:message|request)/

export function parseTokens(text: string): Partial<Usage> | null {
  const match = TOKENS.exec(text)
  if (!match) return null
  const sent = count(match[1])
  const cacheWrite = count(match[2])
  const cost = COST.exec(text)
  return {
    inputTokens: Math.max(0, sent - cacheWrite),
    outputTokens: count(match[4]),
    cacheReadTokens: count(match[3]),
    cacheWriteTokens: cacheWrite,
    ...(cost?.[1] ? { costUsd: Number(cost[1]) } : {})
  }
}

/** `5,244` → 5244, `2.5k` → 2500. */
function count(text: string | undefined): number {
  if (!text) return 0
  const thousands = text.endsWith('k')
  const value = Number(text.replace(/[,k]/g, ''))
  if (!Number.isFinite(value)) return 0
  return Math.round(thousands ? value * 1000 : value)
}
