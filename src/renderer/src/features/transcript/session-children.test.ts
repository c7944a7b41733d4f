import { describe, expect, it } from 'vitest'
import type { ChildRef } from '../../../../shared/contract'
import { EMPTY_COVERAGE } from '../../../../shared/coverage'
import { branchesByTurn, childrenAt, subAgentsBySeq, subAgentsOfRow } from './session-children'

const child = (id: string, kind: ChildRef['kind'], forkSeq: number | null): ChildRef => ({ id, title: id, kind, forkSeq })
const checkpoints = [1, 2, 3].map((turn, index) => ({ turn, messagesBefore: [0, 4, 9][index] ?? 0, invalidated: false, uncapturedCommands: 0, notCaptured: [], coverage: EMPTY_COVERAGE, createdAt: turn }))

describe('where children leave a session', () => {
  it('puts a branch at the turn its fork point opens in, and a sub-agent at its call', () => {
    const children = [child('b3', 'branch', 9), child('b2', 'branch', 6), child('b2x', 'branch', 4), child('sub', 'sub-agent', 6), child('loose', 'branch', null)]
    const branches = branchesByTurn({ children, checkpoints })
    expect([...branches.entries()].map(([turn, refs]) => [turn, refs.map((ref) => ref.id)])).toEqual([
      [3, ['b3']],
      [2, ['b2', 'b2x']]
    ])
    const subAgents = subAgentsBySeq({ children })
    expect(childrenAt(subAgents, 6).map((ref) => ref.id)).toEqual(['sub'])
    expect(childrenAt(subAgents, 9)).toEqual([])
    expect(branchesByTurn(undefined).size).toBe(0)
    // A row of a call and its result links a sub-agent hanging at either.
    expect(subAgentsOfRow(subAgents, 5, 6).map((ref) => ref.id)).toEqual(['sub'])
    expect(subAgentsOfRow(subAgents, 6, null).map((ref) => ref.id)).toEqual(['sub'])
    expect(subAgentsOfRow(subAgents, 5, 7)).toEqual([])
  })
})
