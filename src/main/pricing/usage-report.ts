import type { UsageRow, WorkspaceUsage } from '../../shared/contract'
import { PRICES_DATE } from './prices'
import { addToRow, finishRow, priceGroup, usageAccumulator, type UsageAccumulator } from './usage-rows'

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

type Accumulator = UsageAccumulator<string>

/**
 * Fold the store's groups (day × model × source) into the Usage view's three tables and total.
 * Each group's cost is what its source recorded plus its other tokens at the table's prices;
 * tokens of a model the table does not know are counted as unpriced, never guessed.
 */
export function usageReport(groups: readonly UsageGroupInput[]): WorkspaceUsage {
  const total = usageAccumulator<string>('total')
  const byDay = new Map<string, Accumulator>()
  const byModel = new Map<string, Accumulator>()
  const bySource = new Map<string, Accumulator>()
  for (const group of groups) {
    const { cost, unpriced } = priceGroup(group)
    for (const acc of [total, at(byDay, group.day), at(byModel, group.model ?? 'unknown model'), at(bySource, group.source)]) {
      add(acc, group, cost, unpriced)
    }
  }
  return {
    pricesDate: PRICES_DATE,
    total: finishRow(total),
    byDay: [...byDay.values()].map(finishRow).sort((a, b) => b.key.localeCompare(a.key)),
    byModel: [...byModel.values()].map(finishRow).sort((a, b) => (b.costUsd ?? -1) - (a.costUsd ?? -1) || tokens(b) - tokens(a)),
    bySource: [...bySource.values()].map(finishRow).sort((a, b) => (b.costUsd ?? -1) - (a.costUsd ?? -1) || tokens(b) - tokens(a))
  }
}

function at(map: Map<string, Accumulator>, key: string): Accumulator {
  let acc = map.get(key)
  if (!acc) map.set(key, (acc = usageAccumulator(key)))
  return acc
}

function add(acc: Accumulator, group: UsageGroupInput, cost: number | null, unpriced: number): void {
  addToRow(acc, group.sessionIds.split(','), group, cost, unpriced)
}

function tokens(row: UsageRow): number {
  return row.inputTokens + row.outputTokens + row.cacheReadTokens + row.cacheWriteTokens
}
