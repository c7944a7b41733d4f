import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { AllUsage } from '../../../../shared/contract'
import { call } from '../../api/client'
import { formatCost, formatCount, plural } from '../../lib/format'
import { usageKeys } from '../../state/query-keys'
import { ErrorState, Loading } from '../../ui/States'
import { ActivityCalendar, dayKey, type CalendarMetric } from './ActivityCalendar'
import { UsageTable } from './UsageTable'
import { formatTokens } from './UsageView'

type Grouping = 'day' | 'model' | 'source' | 'workspace'

const GROUPINGS: { value: Grouping; label: string }[] = [
  { value: 'day', label: 'By day' },
  { value: 'model', label: 'By model' },
  { value: 'source', label: 'By source' },
  { value: 'workspace', label: 'By workspace' }
]

/** Every workspace's usage (`usage.all`): a date range, an activity calendar of the days, and one table by day, model, source or workspace. */
export function AllUsageView() {
  const [since, setSince] = useState('')
  const [until, setUntil] = useState('')
  const [grouping, setGrouping] = useState<Grouping>('day')
  const [metric, setMetric] = useState<CalendarMetric>('tokens')
  const range = { ...(since ? { since } : {}), ...(until ? { until } : {}) }
  const usage = useQuery({ queryKey: usageKeys.everywhere(since, until), queryFn: () => call('usage.all', range) })
  return (
    <div className="usage-view" data-testid="all-usage-view">
      <div className="usage-controls">
        <label>
          From <input type="date" value={since} max={until || undefined} onChange={(event) => setSince(event.target.value)} data-testid="usage-since" />
        </label>
        <label>
          to <input type="date" value={until} min={since || undefined} onChange={(event) => setUntil(event.target.value)} data-testid="usage-until" />
        </label>
        {since || until ? (
          <button type="button" className="button small" onClick={() => (setSince(''), setUntil(''))}>
            Every day
          </button>
        ) : null}
        <span className="usage-controls-gap" />
        <div className="segmented" role="group" aria-label="Shade the calendar by">
          {(['tokens', 'cost'] as const).map((value) => (
            <button key={value} type="button" aria-pressed={metric === value} data-testid={`usage-metric-${value}`} onClick={() => setMetric(value)}>
              {value === 'tokens' ? 'Tokens' : 'Cost'}
            </button>
          ))}
        </div>
      </div>
      {usage.isError ? <ErrorState title="Could not sum the usage" error={usage.error} onRetry={() => void usage.refetch()} /> : null}
      {!usage.data && !usage.isError ? <Loading label="Summing tokens…" /> : null}
      {usage.data ? <Report usage={usage.data} grouping={grouping} setGrouping={setGrouping} metric={metric} /> : null}
    </div>
  )
}

function Report({ usage, grouping, setGrouping, metric }: { usage: AllUsage; grouping: Grouping; setGrouping: (value: Grouping) => void; metric: CalendarMetric }) {
  const { total } = usage
  // The year up to the range's end, else to the last day with usage (a history may stop before today).
  const lastKey = usage.until ?? usage.byDay.at(-1)?.key
  const lastDay = lastKey && lastKey !== 'unknown' ? new Date(`${lastKey}T00:00:00`) : new Date()
  return (
    <>
      <p className="dialog-intro" data-testid="all-usage-total">
        <strong>{total.costUsd === null ? 'No known cost' : formatCost(total.costUsd)}</strong> for {formatTokens(total)} over {plural(total.sessions, 'session')} in{' '}
        {plural(usage.byWorkspace.length, 'workspace')}
        {usage.since || usage.until ? `, ${usage.since ?? 'the first day'} to ${usage.until ?? dayKey(new Date())}` : ''}.{' '}
        <span className="muted">Costs at the prices of {usage.pricesDate}, or as the agent recorded them. The same as <code>retrace usage</code>.</span>
      </p>
      {total.unpricedTokens > 0 ? <p className="muted">{formatCount(total.unpricedTokens)} tokens are of models the price table does not know: counted, not priced.</p> : null}
      <ActivityCalendar days={usage.byDay} lastDay={lastDay} metric={metric} />
      <div className="segmented usage-grouping" role="group" aria-label="Group by">
        {GROUPINGS.map((option) => (
          <button key={option.value} type="button" aria-pressed={grouping === option.value} data-testid={`usage-group-${option.value}`} onClick={() => setGrouping(option.value)}>
            {option.label}
          </button>
        ))}
      </div>
      {total.sessions === 0 ? <p className="muted" data-testid="usage-empty">No session reports token usage{usage.since || usage.until ? ' in these days' : ''}.</p> : <GroupTable usage={usage} grouping={grouping} />}
    </>
  )
}

function GroupTable({ usage, grouping }: { usage: AllUsage; grouping: Grouping }) {
  if (grouping === 'day') return <UsageTable title="By day" keyLabel="Day" rows={[...usage.byDay].reverse()} testId="usage-by-day" />
  if (grouping === 'model') return <UsageTable title="By model" keyLabel="Model" rows={usage.byModel} testId="usage-by-model" mono />
  if (grouping === 'source') return <UsageTable title="By source" keyLabel="Source" rows={usage.bySource} testId="usage-by-source" />
  return <UsageTable title="By workspace" keyLabel="Workspace" rows={usage.byWorkspace} testId="usage-by-workspace" mono wrapKeys />
}
