import type { RewindCoverage } from './contract/domain'

/**
 * What a rewind of a session or turn can put back, in four words the window and the CLI share:
 * - `no-changes`: nothing the agent did changed files (as far as its history tells);
 * - `all-recorded`: every change is journaled, so a rewind puts everything back;
 * - `partial`: some changes, or shell commands that may have changed files, are not journaled;
 * - `no-content`: the agent keeps no file content at all, so none of its changes can be rewound.
 */
export type CoverageStatus = 'no-changes' | 'all-recorded' | 'partial' | 'no-content'

/** Coverage of nothing: a turn without changes, and the start of a sum. */
export const EMPTY_COVERAGE: RewindCoverage = { recorded: 0, notCaptured: 0, uncapturedCommands: 0, agentKeepsNoContent: false }

/** What a rewind may miss: not-captured changes plus shell commands whose changes no scan saw. */
export function missedCount(coverage: RewindCoverage): number {
  return coverage.notCaptured + coverage.uncapturedCommands
}

export function coverageStatus(coverage: RewindCoverage): CoverageStatus {
  // An agent that keeps no content can still have journaled changes (a commit found in the
  // repository, a scan); only when none was journaled is "keeps no content" the whole story.
  if (coverage.agentKeepsNoContent && coverage.recorded === 0) return 'no-content'
  const missed = missedCount(coverage)
  if (coverage.recorded === 0 && missed === 0) return 'no-changes'
  return missed === 0 ? 'all-recorded' : 'partial'
}

/** "all changes recorded", "3 of 5 recorded", "this agent keeps no file content", "no file changes". */
export function coverageLabel(coverage: RewindCoverage): string {
  switch (coverageStatus(coverage)) {
    case 'no-content':
      return 'this agent keeps no file content'
    case 'no-changes':
      return 'no file changes'
    case 'all-recorded':
      return 'all changes recorded'
    case 'partial':
      return `${coverage.recorded} of ${coverage.recorded + missedCount(coverage)} recorded`
  }
}

/** The coverage of several turns (a session's, a range's). */
export function sumCoverage(parts: readonly RewindCoverage[]): RewindCoverage {
  return parts.reduce<RewindCoverage>(
    (sum, part) => ({
      recorded: sum.recorded + part.recorded,
      notCaptured: sum.notCaptured + part.notCaptured,
      uncapturedCommands: sum.uncapturedCommands + part.uncapturedCommands,
      agentKeepsNoContent: sum.agentKeepsNoContent || part.agentKeepsNoContent
    }),
    EMPTY_COVERAGE
  )
}
