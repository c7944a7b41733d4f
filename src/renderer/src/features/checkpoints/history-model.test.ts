import { describe, expect, it } from 'vitest'
import { describeRewind, historyRows, type RewindSummary } from './history-model'

const rewind = (id: string, createdAt: number, extra: Partial<RewindSummary> = {}): RewindSummary => ({
  id,
  targetTurn: 3,
  undoOf: null,
  status: 'applied',
  createdAt,
  finishedAt: createdAt + 5,
  changed: 2,
  ...extra
})

describe('rewind history', () => {
  const items = [rewind('a', 1, { status: 'undone' }), rewind('b', 2, { targetTurn: null, undoOf: 'a' }), rewind('c', 3, { status: 'failed' })]

  it('lists newest first, and offers undo only for applied rewinds (an undo is one)', () => {
    const rows = historyRows(items)
    expect(rows.map((row) => row.rewind.id)).toEqual(['c', 'b', 'a'])
    expect(rows.map((row) => row.canUndo)).toEqual([false, true, false])
  })

  it('names what each rewind did', () => {
    expect(describeRewind(items[0] as RewindSummary, items)).toBe('Files back to before turn 3')
    expect(describeRewind(items[1] as RewindSummary, items)).toBe('Undo of: files back to before turn 3')
    expect(describeRewind(rewind('d', 4, { undoOf: 'gone' }), items)).toBe('Undo of an earlier rewind')
  })
})
