import type { AllUsage, UsageDay, UsageRow } from '../../shared/contract'
import type { CliCall } from './call'
import type { Output } from './commands'

export type UsageGrouping = 'day' | 'model' | 'source' | 'workspace'

export interface UsageCommandOptions {
  since?: string
  until?: string
  by: UsageGrouping
  json: boolean
  io: Output
}

/**
 * `retrace usage [--since DATE] [--until DATE] [--by day|model|source|workspace] [--json]`: the
 * tokens and cost of every workspace's sessions in the store, in the shape of ccusage's `daily`
 * report (a table, or its `--json`: README "CLI" says where they differ).
 */
export async function usageCommand(call: CliCall, options: UsageCommandOptions): Promise<void> {
  const usage = await call('usage.all', { ...(options.since ? { since: options.since } : {}), ...(options.until ? { until: options.until } : {}) })
  if (options.json) return options.io.out(JSON.stringify(usageJson(usage, options.by), null, 2))
  if (usage.total.sessions === 0) {
    options.io.out(`No usage recorded${rangeText(usage)}. \`retrace import --all\` reads every agent's history into the store first.`)
    return
  }
  const rows = rowsBy(usage, options.by)
  const first = options.by === 'day' ? ['Date', 'Models'] : [KEY_HEADER[options.by], 'Sessions']
  const body = rows.map((row) => [row.key, options.by === 'day' ? modelsText(row as UsageDay) : String(row.sessions), ...tokenCells(row)])
  const totalRow = ['Total', options.by === 'day' ? '' : String(usage.total.sessions), ...tokenCells(usage.total)]
  options.io.out(`Usage${rangeText(usage)}, by ${options.by}: costs at the prices of ${usage.pricesDate}, or as the agent recorded them.\n`)
  options.io.out(alignedTable([...first, 'Input', 'Output', 'Cache Create', 'Cache Read', 'Total Tokens', 'Cost (USD)'], [...body, totalRow], options.by === 'day' ? 2 : 1))
  if (usage.total.unpricedTokens > 0) options.io.out(`\n${count(usage.total.unpricedTokens)} tokens are of models the price table does not know: counted, not priced (a + beside the cost).`)
}

const KEY_HEADER: Record<Exclude<UsageGrouping, 'day'>, string> = { model: 'Model', source: 'Source', workspace: 'Workspace' }

function rowsBy(usage: AllUsage, by: UsageGrouping): readonly UsageRow[] {
  if (by === 'day') return usage.byDay
  if (by === 'model') return usage.byModel
  if (by === 'source') return usage.bySource
  return usage.byWorkspace
}

function tokenCells(row: UsageRow): string[] {
  const cost = row.costUsd === null ? '—' : `$${row.costUsd.toFixed(2)}`
  return [count(row.inputTokens), count(row.outputTokens), count(row.cacheWriteTokens), count(row.cacheReadTokens), count(totalTokens(row)), `${cost}${row.unpricedTokens > 0 && row.costUsd !== null ? '+' : ''}`]
}

/** A table whose number columns (all after the first `textColumns`) are aligned right, as ccusage's, the total under a rule. */
function alignedTable(header: string[], rows: string[][], textColumns: number): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)))
  const line = (cells: string[]) => cells.map((cell, i) => (i < textColumns ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ').trimEnd()
  const rule = widths.map((width) => '─'.repeat(width)).join('  ')
  return [line(header), rule, ...rows.slice(0, -1).map(line), rule, ...rows.slice(-1).map(line)].join('\n')
}

/** ccusage's short model names: `claude-sonnet-4-20250514` → `sonnet-4`. */
export function shortModel(model: string): string {
  return model.replace(/^claude-/, '').replace(/-\d{8}$/, '')
}

function modelsText(day: UsageDay): string {
  return day.models.map((model) => shortModel(model.key)).join(', ')
}

function rangeText(usage: AllUsage): string {
  if (usage.since && usage.until) return ` from ${usage.since} to ${usage.until}`
  if (usage.since) return ` since ${usage.since}`
  if (usage.until) return ` until ${usage.until}`
  return ''
}

function totalTokens(row: UsageRow): number {
  return row.inputTokens + row.outputTokens + row.cacheReadTokens + row.cacheWriteTokens
}

function count(value: number): string {
  return value.toLocaleString('en-US')
}

/** ccusage's token fields, the cost as `totalCost` (ccusage's name) with Retrace's own beside it. */
function tokenFields(row: UsageRow) {
  return {
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    cacheCreationTokens: row.cacheWriteTokens,
    cacheReadTokens: row.cacheReadTokens,
    totalTokens: totalTokens(row),
    totalCost: row.costUsd ?? 0,
    sessions: row.sessions,
    unpricedTokens: row.unpricedTokens
  }
}

/**
 * Close to ccusage's `daily --json`: `{ daily: [{ period, …tokens, totalCost, modelsUsed,
 * modelBreakdowns }], totals }`; with --by, the rows are under `models` / `sources` /
 * `workspaces` and name their `model` / `source` / `workspace` instead of a `period`.
 */
export function usageJson(usage: AllUsage, by: UsageGrouping): object {
  const totals = { ...tokenFields(usage.total), pricesDate: usage.pricesDate, since: usage.since, until: usage.until }
  if (by === 'day') {
    const daily = usage.byDay.map((day) => ({
      period: day.key,
      ...tokenFields(day),
      modelsUsed: day.models.map((model) => model.key),
      modelBreakdowns: day.models.map((model) => {
        const { totalTokens: _total, totalCost, sessions: _sessions, unpricedTokens: _unpriced, ...tokens } = tokenFields(model)
        return { modelName: model.key, ...tokens, cost: totalCost }
      })
    }))
    return { daily, totals }
  }
  if (by === 'model') return { models: usage.byModel.map((row) => ({ model: row.key, ...tokenFields(row) })), totals }
  if (by === 'source') return { sources: usage.bySource.map((row) => ({ source: row.key, ...tokenFields(row) })), totals }
  return { workspaces: usage.byWorkspace.map((row) => ({ workspace: row.key, workspaceId: row.workspaceId, ...tokenFields(row) })), totals }
}
