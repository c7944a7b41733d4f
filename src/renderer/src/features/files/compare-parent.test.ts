import { describe, expect, it } from 'vitest'
import { compareWithParentReason, parentComparison } from './compare-parent'

const parent = { id: 'parent', turnCount: 4 }

describe('parentComparison', () => {
  it('compares a branch with its parent after the same turn, from the turn it branched at', () => {
    const branch = { id: 'branch', kind: 'branch' as const, turnCount: 3, forkTurn: 2 }
    const model = parentComparison(branch, parent)
    expect(model.turns).toEqual([2, 3])
    expect(model.initialTurn).toBe(3)
    expect(model.sides(3)).toEqual({ sessionId: 'parent', fromTurn: 4, toSessionId: 'branch', toTurn: 4 })
    expect(model.parentPoint(3)).toBe('after turn 3')
  })

  it('takes the parent after its last turn when the branch has gone further', () => {
    const model = parentComparison({ id: 'branch', kind: 'branch', turnCount: 6, forkTurn: 2 }, parent)
    expect(model.sides(6)).toEqual({ sessionId: 'parent', fromTurn: 5, toSessionId: 'branch', toTurn: 7 })
    expect(model.parentPoint(6)).toBe('after its last turn (turn 4)')
    expect(model.parentPoint(4)).toBe('after turn 4')
  })

  it('faces each of a sub-agent’s turns with its parent after the turn that started it', () => {
    const model = parentComparison({ id: 'sub', kind: 'sub-agent', turnCount: 2, forkTurn: 1 }, parent)
    expect(model.turns).toEqual([1, 2])
    expect(model.sides(1)).toEqual({ sessionId: 'parent', fromTurn: 2, toSessionId: 'sub', toTurn: 2 })
    expect(model.sides(2)).toEqual({ sessionId: 'parent', fromTurn: 2, toSessionId: 'sub', toTurn: 3 })
    expect(model.parentPoint(2)).toBe('after turn 1, the turn that started it')
  })

  it('offers nothing for a branch without a turn of its own', () => {
    const fresh = { kind: 'branch' as const, parentId: 'parent', turnCount: 1, forkTurn: 2 }
    expect(parentComparison({ id: 'b', ...fresh }, parent).turns).toEqual([])
    expect(compareWithParentReason(fresh)).toBe('This branch has no turn of its own yet: its files are its parent’s.')
    expect(compareWithParentReason({ ...fresh, turnCount: 2 })).toBeNull()
    expect(compareWithParentReason({ ...fresh, kind: 'main', parentId: null })).toBe('Only a branch or a sub-agent has a parent to compare with.')
  })
})
