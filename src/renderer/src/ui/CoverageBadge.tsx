import type { NotCapturedChange, RewindCoverage } from '../../../shared/contract'
import { coverageLabel, coverageStatus } from '../../../shared/coverage'
import { coverageTitle } from '../lib/coverage-text'

/**
 * How much of a session a rewind can put back: "all changes recorded", "N of M recorded" or
 * "this agent keeps no file content" (its tooltip says why); nothing for a session without
 * changes. The same badge in the list, the graph and the transcript header.
 */
export function CoverageBadge({ coverage, entries = null }: { coverage: RewindCoverage; entries?: readonly NotCapturedChange[] | null }) {
  const status = coverageStatus(coverage)
  if (status === 'no-changes') return null
  return (
    <span className={`badge badge-coverage coverage-${status}`} data-testid="coverage-badge" data-status={status} title={coverageTitle(coverage, entries)}>
      {coverageLabel(coverage)}
    </span>
  )
}
