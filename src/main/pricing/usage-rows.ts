import type { UsageRow } from '../../shared/contract'
import { costOf } from './prices'

/** What a usage report sums of one group of messages: its tokens, and those its source did not price. */
export interface UsageGroupTokens {
  model: string | null
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
  recordedCostUsd: number | null
  unrecordedInputTokens: number
  unrecordedOutputTokens: number
  unrecordedCacheReadTokens: number
  unrecordedCacheWriteTokens: number
}

/** One row of a report as it is summed: the sessions seen (by whatever id the report has) and the totals. */
export interface UsageAccumulator<SessionId> {
  sessions: Set<SessionId>
  row: UsageRow
}

export function usageAccumulator<SessionId>(key: string): UsageAccumulator<SessionId> {
  return {
    sessions: new Set(),
    row: { key, sessions: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null, unpricedTokens: 0 }
  }
}

/**
 * A group's cost: what its source recorded plus its other tokens at the table's prices; tokens of
 * a model the table does not know are counted as unpriced, never guessed.
 */
export function priceGroup(group: UsageGroupTokens): { cost: number | null; unpriced: number } {
  const atTable = costOf(group.model, {
    inputTokens: group.unrecordedInputTokens,
    outputTokens: group.unrecordedOutputTokens,
    cacheReadTokens: group.unrecordedCacheReadTokens,
    cacheWriteTokens: group.unrecordedCacheWriteTokens
  })
  const unrecorded = group.unrecordedInputTokens + group.unrecordedOutputTokens + group.unrecordedCacheReadTokens + group.unrecordedCacheWriteTokens
  const cost = group.recordedCostUsd === null && atTable === undefined ? null : (group.recordedCostUsd ?? 0) + (atTable ?? 0)
  return { cost, unpriced: atTable === undefined ? unrecorded : 0 }
}

export function addToRow<SessionId>(acc: UsageAccumulator<SessionId>, sessions: Iterable<SessionId>, group: UsageGroupTokens, cost: number | null, unpriced: number): void {
  for (const id of sessions) acc.sessions.add(id)
  const row = acc.row
  row.inputTokens += group.inputTokens
  row.outputTokens += group.outputTokens
  row.cacheReadTokens += group.cacheReadTokens
  row.cacheWriteTokens += group.cacheWriteTokens
  row.unpricedTokens += unpriced
  if (cost !== null) row.costUsd = (row.costUsd ?? 0) + cost
}

export function finishRow<SessionId>(acc: UsageAccumulator<SessionId>): UsageRow {
  return { ...acc.row, sessions: acc.sessions.size }
}
