import type { UsageRow, WorkspaceUsage } from '../../shared/contract'
import { costOf, PRICES_DATE } from './prices'

/** One group of messages as the store sums them (see store/repositories/usage.ts). */
export interface UsageGroupInput {
  day: string
  model: string | null
  source: string
  /** The sessions of the group, comma-separated row ids (a session spans days and models). */
  sessionIds: string
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
  /** What the source recorded for the group's messages that have a cost; null: none has. */
  recordedCostUsd: number | null
  /** The tokens of the messages without a recorded cost: what the price table prices. */
  unrecordedInputTokens: number
  unrecordedOutputTokens: number
  unrecordedCacheReadTokens: number
  unrecordedCacheWriteTokens: number
}

interface Accumulator {
  sessions: Set<string>
  row: UsageRow
}

/**
 * Fold the store's groups (day × model × source) into the Usage view's three tables and total.
 * Each group's cost is what its source recorded plus its other tokens at the table's prices;
 * tokens of a model the table does not know are counted as unpriced, never guessed.
 */
export function usageReport(groups: readonly UsageGroupInput[]): WorkspaceUsage {
  const total = accumulator('total')
  const byDay = new Map<string, Accumulator>()
  const byModel = new Map<string, Accumulator>()
  const bySource = new Map<string, Accumulator>()
  for (const group of groups) {
    const priced = costOf(group.model, {
      inputTokens: group.unrecordedInputTokens,
      outputTokens: group.unrecordedOutputTokens,
      cacheReadTokens: group.unrecordedCacheReadTokens,
      cacheWriteTokens: group.unrecordedCacheWriteTokens
    })
    const unrecordedTokens = group.unrecordedInputTokens + group.unrecordedOutputTokens + group.unrecordedCacheReadTokens + group.unrecordedCacheWriteTokens
    const cost = group.recordedCostUsd === null && priced === undefined ? null : (group.recordedCostUsd ?? 0) + (priced ?? 0)
    const unpriced = priced === undefined ? unrecordedTokens : 0
    for (const acc of [total, at(byDay, group.day), at(byModel, group.model ?? 'unknown model'), at(bySource, group.source)]) {
      add(acc, group, cost, unpriced)
    }
  }
  return {
    pricesDate: PRICES_DATE,
    total: finish(total),
    byDay: [...byDay.values()].map(finish).sort((a, b) => b.key.localeCompare(a.key)),
    byModel: [...byModel.values()].map(finish).sort((a, b) => (b.costUsd ?? -1) - (a.costUsd ?? -1) || tokens(b) - tokens(a)),
    bySource: [...bySource.values()].map(finish).sort((a, b) => (b.costUsd ?? -1) - (a.costUsd ?? -1) || tokens(b) - tokens(a))
  }
}

function accumulator(key: string): Accumulator {
  return {
    sessions: new Set(),
    row: { key, sessions: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null, unpricedTokens: 0 }
  }
}

function at(map: Map<string, Accumulator>, key: string): Accumulator {
  let acc = map.get(key)
  if (!acc) map.set(key, (acc = accumulator(key)))
  return acc
}

function add(acc: Accumulator, group: UsageGroupInput, cost: number | null, unpriced: number): void {
  for (const id of group.sessionIds.split(',')) acc.sessions.add(id)
  const row = acc.row
  row.inputTokens += group.inputTokens
  row.outputTokens += group.outputTokens
  row.cacheReadTokens += group.cacheReadTokens
  row.cacheWriteTokens += group.cacheWriteTokens
  row.unpricedTokens += unpriced
  if (cost !== null) row.costUsd = (row.costUsd ?? 0) + cost
}

function finish(acc: Accumulator): UsageRow {
  return { ...acc.row, sessions: acc.sessions.size }
}

function tokens(row: UsageRow): number {
  return row.inputTokens + row.outputTokens + row.cacheReadTokens + row.cacheWriteTokens
}
