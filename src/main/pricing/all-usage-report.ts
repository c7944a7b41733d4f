import type { AllUsage, UsageDay, UsageRow } from '../../shared/contract'
import { PRICES_DATE } from './prices'
import { addToRow, finishRow, priceGroup, usageAccumulator, type UsageAccumulator } from './usage-rows'

/** One group of messages as the store sums them for the report over every workspace (store/repositories/usage.ts). */
export interface AllUsageGroup {
  /** The quarter hour of the messages (ms since the epoch / bucketMs); null when no time is recorded. */
  bucket: number | null
  model: string | null
  sessionId: number
  source: string
  workspaceId: number
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

/** What the report needs beside the groups: the days asked for, how long a bucket is, and each workspace's folder. */
export interface AllUsageContext {
  since: string | null
  until: string | null
  bucketMs: number
  workspacePath: (workspaceId: number) => string
}

const UNKNOWN_DAY = 'unknown'
const UNKNOWN_MODEL = 'unknown model'

type Accumulator = UsageAccumulator<number>

/** Groups of rows by key, made as they are first met. */
class Table {
  readonly rows = new Map<string, Accumulator>()
  at(key: string): Accumulator {
    let acc = this.rows.get(key)
    if (!acc) this.rows.set(key, (acc = usageAccumulator(key)))
    return acc
  }
}

/**
 * Fold the store's groups (session × quarter hour × model) into the report: a total, by day (each
 * with its models), by model, by source and by workspace. Costs as in `usageReport`: what the
 * source recorded plus the other tokens at the table's prices; unknown models counted, not priced.
 */
export function allUsageReport(groups: readonly AllUsageGroup[], context: AllUsageContext): AllUsage {
  const dayOf = dayOfBucket(context.bucketMs)
  const total = usageAccumulator<number>('total')
  const byDay = new Table()
  const dayModels = new Map<string, Table>()
  const byModel = new Table()
  const bySource = new Table()
  const byWorkspace = new Map<number, Accumulator>()
  for (const group of groups) {
    const { cost, unpriced } = priceGroup(group)
    const day = group.bucket === null ? UNKNOWN_DAY : dayOf(group.bucket)
    const model = group.model ?? UNKNOWN_MODEL
    let models = dayModels.get(day)
    if (!models) dayModels.set(day, (models = new Table()))
    let workspace = byWorkspace.get(group.workspaceId)
    if (!workspace) byWorkspace.set(group.workspaceId, (workspace = usageAccumulator(context.workspacePath(group.workspaceId))))
    for (const acc of [total, byDay.at(day), models.at(model), byModel.at(model), bySource.at(group.source), workspace]) add(acc, group, cost, unpriced)
  }
  const days: UsageDay[] = [...byDay.rows.values()]
    .map((acc) => ({ ...finishRow(acc), models: dearestFirst([...(dayModels.get(acc.row.key)?.rows.values() ?? [])].map(finishRow)) }))
    .sort((a, b) => a.key.localeCompare(b.key))
  return {
    pricesDate: PRICES_DATE,
    since: context.since,
    until: context.until,
    total: finishRow(total),
    byDay: days,
    byModel: dearestFirst([...byModel.rows.values()].map(finishRow)),
    bySource: dearestFirst([...bySource.rows.values()].map(finishRow)),
    byWorkspace: dearestFirst([...byWorkspace.entries()].map(([workspaceId, acc]) => ({ ...finishRow(acc), workspaceId })))
  }
}

/** A bucket's local day (`YYYY-MM-DD`), remembered: a history has far fewer quarter hours than groups. */
function dayOfBucket(bucketMs: number): (bucket: number) => string {
  const days = new Map<number, string>()
  return (bucket) => {
    let day = days.get(bucket)
    if (day === undefined) {
      const date = new Date(bucket * bucketMs)
      day = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`
      days.set(bucket, day)
    }
    return day
  }
}

function add(acc: Accumulator, group: AllUsageGroup, cost: number | null, unpriced: number): void {
  addToRow(acc, [group.sessionId], group, cost, unpriced)
}

function dearestFirst<T extends UsageRow>(rows: T[]): T[] {
  return rows.sort((a, b) => (b.costUsd ?? -1) - (a.costUsd ?? -1) || tokens(b) - tokens(a))
}

function tokens(row: UsageRow): number {
  return row.inputTokens + row.outputTokens + row.cacheReadTokens + row.cacheWriteTokens
}
