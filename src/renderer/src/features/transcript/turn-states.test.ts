import { describe, expect, it } from 'vitest'
import type { Checkpoint, MethodOutput } from '../../../../shared/contract'
import { EMPTY_COVERAGE } from '../../../../shared/coverage'
import { rewindInEffect, turnStates } from './turn-states'

type Rewind = MethodOutput<'rewind.list'>['items'][number]

const checkpoint = (turn: number, createdAt = turn * 100, invalidated = false): Checkpoint => ({ turn, messagesBefore: turn * 2, invalidated, uncapturedCommands: 0, notCaptured: [], coverage: EMPTY_COVERAGE, createdAt })
const rewind = (id: string, fields: Partial<Rewind>): Rewind => ({ id, targetTurn: null, undoOf: null, status: 'applied', createdAt: 1000, finishedAt: 1001, changed: 1, ...fields })
const states = (turnCount: number, rewinds: Rewind[], checkpoints = Array.from({ length: turnCount }, (_, i) => checkpoint(i + 1))) =>
  Object.fromEntries(turnStates({ turnCount, checkpoints, rewinds }))

describe('turn states', () => {
  it('marks only the latest turn current when nothing was rewound', () => {
    expect(states(3, [])).toEqual({ 3: 'current' })
    expect(states(0, [])).toEqual({})
  })

  it('marks the turns a rewind went back past, and the one before them current', () => {
    expect(states(4, [rewind('r', { targetTurn: 3 })])).toEqual({ 2: 'current', 3: 'rewound', 4: 'rewound' })
    expect(states(2, [rewind('r', { targetTurn: 1 })])).toEqual({ 1: 'rewound', 2: 'rewound' })
  })

  it('ignores undone, failed and rolled-back rewinds, and counts an undo that was itself undone', () => {
    const undone = rewind('r', { targetTurn: 2, status: 'undone' })
    const undo = rewind('u', { undoOf: 'r', createdAt: 1100 })
    expect(states(3, [undone, undo])).toEqual({ 3: 'current' })
    expect(states(3, [rewind('f', { targetTurn: 1, status: 'failed' }), rewind('b', { targetTurn: 1, status: 'rolled_back' })])).toEqual({ 3: 'current' })
    // Undo of the undo: the first rewind holds again.
    const undoneUndo = rewind('u', { undoOf: 'r', createdAt: 1100, status: 'undone' })
    const redo = rewind('uu', { undoOf: 'u', createdAt: 1200 })
    expect(rewindInEffect(undone, [undone, undoneUndo, redo])).toBe(true)
    expect(states(3, [undone, undoneUndo, redo])).toEqual({ 1: 'current', 2: 'rewound', 3: 'rewound' })
  })

  it('leaves turns added after the rewind alone', () => {
    const checkpoints = [checkpoint(1), checkpoint(2), checkpoint(3, 2000)]
    expect(states(3, [rewind('r', { targetTurn: 2, createdAt: 1000 })], checkpoints)).toEqual({ 2: 'rewound', 3: 'current' })
  })

  it('shows invalidated checkpoints, which are never current', () => {
    expect(states(3, [], [checkpoint(1), checkpoint(2), checkpoint(3, 300, true)])).toEqual({ 2: 'current', 3: 'invalidated' })
  })
})
