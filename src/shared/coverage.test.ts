import { describe, expect, it } from 'vitest'
import { coverageLabel, coverageStatus, EMPTY_COVERAGE, sumCoverage } from './coverage'

const of = (recorded: number, notCaptured = 0, uncapturedCommands = 0, agentKeepsNoContent = false) => ({ recorded, notCaptured, uncapturedCommands, agentKeepsNoContent })

describe('rewind coverage', () => {
  it('says all, N of M, none or no content', () => {
    expect([coverageStatus(of(0)), coverageLabel(of(0))]).toEqual(['no-changes', 'no file changes'])
    expect([coverageStatus(of(5)), coverageLabel(of(5))]).toEqual(['all-recorded', 'all changes recorded'])
    expect([coverageStatus(of(3, 1, 1)), coverageLabel(of(3, 1, 1))]).toEqual(['partial', '3 of 5 recorded'])
    expect([coverageStatus(of(0, 2)), coverageLabel(of(0, 2))]).toEqual(['partial', '0 of 2 recorded'])
    expect([coverageStatus(of(0, 2, 0, true)), coverageLabel(of(0, 2, 0, true))]).toEqual(['no-content', 'this agent keeps no file content'])
    // A change found all the same (a commit, a scan) is not "keeps no content".
    expect(coverageStatus(of(1, 2, 0, true))).toBe('partial')
  })

  it('sums turns', () => {
    expect(sumCoverage([of(1, 1), of(2, 0, 3)])).toEqual(of(3, 1, 3))
    expect(sumCoverage([])).toEqual(EMPTY_COVERAGE)
  })
})
