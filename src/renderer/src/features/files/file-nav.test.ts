import { describe, expect, it } from 'vitest'
import type { FileChange } from '../../../../shared/contract'
import { groupTurnChanges } from './changes'
import { checkpointLabel } from './CompareDialog'
import { fileNeighbours, neighbourFocus } from './file-nav'

const change = (id: number, path: string): FileChange => ({
  id,
  path,
  pathId: btoa(path),
  op: 'modify',
  from: null,
  before: { kind: 'file', hash: 'a'.repeat(64), size: 1, mode: 0o644 },
  after: { kind: 'file', hash: 'b'.repeat(64), size: 2, mode: 0o644 },
  observed: 'tool',
  added: 1,
  removed: 0,
  tooManyChanges: false
})

describe('fileNeighbours', () => {
  const groups = groupTurnChanges([change(1, 'a.ts'), change(2, 'b.ts'), change(3, 'c.ts')])

  it('gives the files before and after the open one, and its position', () => {
    const middle = fileNeighbours(groups, groups[1]?.key ?? '')
    expect([middle.position, middle.total, middle.previous?.path, middle.next?.path]).toEqual([2, 3, 'a.ts', 'c.ts'])
  })

  it('stops at the ends instead of wrapping around', () => {
    expect(fileNeighbours(groups, groups[0]?.key ?? '').previous).toBeNull()
    expect(fileNeighbours(groups, groups[2]?.key ?? '').next).toBeNull()
  })

  it('has no neighbours while the turn\'s files are not loaded', () => {
    expect(fileNeighbours([], groups[0]?.key ?? '')).toEqual({ position: 0, total: 0, previous: null, next: null })
  })
})

describe('neighbourFocus', () => {
  it('keeps the prefix of the row that opened the dialog (a replay\'s)', () => {
    expect(neighbourFocus('replay:s:1:a', 's:1:a', 's:1:b')).toBe('replay:s:1:b')
    expect(neighbourFocus('s:1:a', 's:1:a', 's:1:b')).toBe('s:1:b')
  })
})

describe('checkpointLabel', () => {
  it('names a checkpoint by the turn it precedes, and the last one as after the last turn', () => {
    expect(checkpointLabel(1, 3)).toBe('before turn 1')
    expect(checkpointLabel(3, 3)).toBe('before turn 3')
    expect(checkpointLabel(4, 3)).toBe('after the last turn (turn 3)')
  })
})
