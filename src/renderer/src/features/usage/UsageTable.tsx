import type { UsageRow } from '../../../../shared/contract'
import { formatCost, formatCount } from '../../lib/format'

/** One table of usage rows (a day, a model, a source, a workspace each), each with a bar of its cost beside the dearest's. */
export function UsageTable({ title, keyLabel, rows, testId, mono = false, wrapKeys = false }: { title: string; keyLabel: string; rows: readonly UsageRow[]; testId: string; mono?: boolean; wrapKeys?: boolean }) {
  const dearest = Math.max(0, ...rows.map((row) => row.costUsd ?? 0))
  return (
    <section className="usage-section" data-testid={testId}>
      <h3 className="usage-heading">{title}</h3>
      <table className={`history-table usage-table${wrapKeys ? ' wrap-keys' : ''}`}>
        <thead>
          <tr>
            <th>{keyLabel}</th>
            <th className="number">Sessions</th>
            <th className="number">Input</th>
            <th className="number">Output</th>
            <th className="number">Cache read</th>
            <th className="number">Cache write</th>
            <th className="number">Cost</th>
            <th aria-hidden="true" className="usage-bar-cell" />
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} data-testid="usage-row" data-key={row.key}>
              <td className={mono ? 'mono' : undefined}>{row.key}</td>
              <td className="number">{row.sessions}</td>
              <td className="number">{formatCount(row.inputTokens)}</td>
              <td className="number">{formatCount(row.outputTokens)}</td>
              <td className="number">{formatCount(row.cacheReadTokens)}</td>
              <td className="number">{formatCount(row.cacheWriteTokens)}</td>
              <td className="number" title={row.unpricedTokens > 0 ? `${formatCount(row.unpricedTokens)} tokens of a model the price table does not know` : undefined}>
                {row.costUsd === null ? '—' : formatCost(row.costUsd)}
                {row.unpricedTokens > 0 && row.costUsd !== null ? '+' : ''}
              </td>
              <td className="usage-bar-cell" aria-hidden="true">
                <span className="usage-bar" style={{ width: `${dearest > 0 ? ((row.costUsd ?? 0) / dearest) * 100 : 0}%` }} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
