import type { NotCapturedChange, RewindCoverage } from '../../../shared/contract'
import { coverageStatus, missedCount } from '../../../shared/coverage'
import { plural } from './format'

/**
 * The tooltip of a coverage badge: what a rewind puts back and, when not everything, why not.
 * With the not-captured entries themselves (the transcript header has them), their reasons
 * counted ("2 outside the workspace"); without (the list, the graph), what kinds are missing.
 */
export function coverageTitle(coverage: RewindCoverage, entries: readonly NotCapturedChange[] | null = null): string {
  switch (coverageStatus(coverage)) {
    case 'no-changes':
      return 'No file changes in this session’s history.'
    case 'no-content':
      return 'This agent’s history names the files it changed but keeps none of their content, so a rewind cannot put them back.'
    case 'all-recorded':
      return `All ${plural(coverage.recorded, 'file change')} of this session are recorded: a rewind can put each one back.`
    case 'partial':
      break
  }
  const lines = [`${coverage.recorded} of ${coverage.recorded + missedCount(coverage)} recorded: a rewind puts back only the recorded ones.`]
  if (coverage.notCaptured > 0) {
    const reasons = entries && entries.length > 0 ? reasonCounts(entries) : null
    lines.push(`${plural(coverage.notCaptured, 'change')} not recorded${reasons ? `: ${reasons}` : ' (each turn says why)'}.`)
  }
  if (coverage.uncapturedCommands > 0) lines.push(`${plural(coverage.uncapturedCommands, 'shell command')} whose file changes no scan saw.`)
  if (coverage.agentKeepsNoContent) lines.push('This agent keeps no file content of its own.')
  return lines.join('\n')
}

/** "2 outside the workspace, 1 its earlier content is unknown": each reason with how many. */
export function reasonCounts(entries: readonly NotCapturedChange[]): string {
  const counts = new Map<string, number>()
  for (const entry of entries) counts.set(entry.reason, (counts.get(entry.reason) ?? 0) + 1)
  return [...counts].map(([reason, count]) => `${count} ${reason}`).join(', ')
}

/** "apply_patch in turn 3: its earlier content is unknown", the line under a not-captured path. */
export function notCapturedLine(entry: NotCapturedChange, withTurn: boolean): string {
  return `${entry.tool}${withTurn ? ` in turn ${entry.turn}` : ''}: ${entry.reason}`
}
