import { useQuery } from '@tanstack/react-query'
import type { UsageRow } from '../../../../shared/contract'
import { UsageTable } from './UsageTable'
import { call } from '../../api/client'
import { formatCost, formatCount, plural } from '../../lib/format'
import { usageKeys } from '../../state/query-keys'
import { ErrorState, Loading } from '../../ui/States'

/** The workspace's usage: a total, then one table by day, by model and by source, each row with a bar of its cost. */
export function UsageView({ workspaceId }: { workspaceId: number }) {
  const usage = useQuery({ queryKey: usageKeys.of(workspaceId), queryFn: () => call('usage.workspace', { workspaceId }) })
  if (usage.isError) return <ErrorState title="Could not sum the usage" error={usage.error} onRetry={() => void usage.refetch()} />
  if (!usage.data) return <Loading label="Summing tokens…" />
  const { total, byDay, byModel, bySource, pricesDate } = usage.data
  if (total.sessions === 0) return <p className="muted" data-testid="usage-empty">No session of this workspace reports token usage.</p>
  return (
    <div className="usage-view" data-testid="usage-view">
      <p className="dialog-intro" data-testid="usage-total">
        <strong>{total.costUsd === null ? 'No known cost' : formatCost(total.costUsd)}</strong> for {formatTokens(total)} over {plural(total.sessions, 'session')}.{' '}
        <span className="muted" title="LiteLLM's published prices per token, shipped with Retrace (src/main/pricing/PROVENANCE.txt). A cost an agent recorded itself (Cline, Aider, OpenCode…) is used as it is.">
          Costs at the prices of {pricesDate}, or as the agent recorded them.
        </span>
      </p>
      {total.unpricedTokens > 0 ? (
        <p className="muted" data-testid="usage-unpriced">
          {formatCount(total.unpricedTokens)} tokens are of models the price table does not know: counted, not priced.
        </p>
      ) : null}
      <UsageTable title="By day" keyLabel="Day" rows={byDay} testId="usage-by-day" />
      <UsageTable title="By model" keyLabel="Model" rows={byModel} testId="usage-by-model" mono />
      <UsageTable title="By source" keyLabel="Source" rows={bySource} testId="usage-by-source" />
    </div>
  )
}

export function formatTokens(row: UsageRow): string {
  return `${formatCount(row.inputTokens + row.outputTokens + row.cacheReadTokens + row.cacheWriteTokens)} tokens`
}
