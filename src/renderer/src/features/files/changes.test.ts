import { describe, expect, it } from 'vitest'
import type { FileChange } from '../../../../shared/contract'
import { formatBytes, formatMode, groupTurnChanges, totals, uncapturedNotice } from './changes'

const version = (hash: string, mode = 0o100644) => ({ kind: 'file' as const, hash: hash.repeat(64).slice(0, 64), size: 10, mode })
const ref = (path: string) => ({ path, pathId: btoa(path) })

let nextId = 1
function change(op: FileChange['op'], path: string, before: string | null, after: string | null, extra: Partial<FileChange> = {}): FileChange {
  return { id: nextId++, ...ref(path), op, from: null, before: before ? version(before) : null, after: after ? version(after) : null, observed: 'tool', added: 1, removed: 1, tooManyChanges: false, ...extra }
}

describe('groupTurnChanges', () => {
  it('keeps one entry per file as the server described it', () => {
    const groups = groupTurnChanges([change('create', 'a.ts', null, 'a', { added: 26, removed: 0 }), change('delete', 'b.ts', 'b', null)])
    expect(groups.map((group) => [group.path, group.op, group.added, group.removed, group.entries.length])).toEqual([
      ['a.ts', 'create', 26, 0, 1],
      ['b.ts', 'delete', 1, 1, 1]
    ])
  })

  it('folds several edits of one file into one row whose counts wait for the net diff', () => {
    const groups = groupTurnChanges([change('modify', 'src/dates.ts', '1', '2'), change('modify', 'test/dates.test.ts', '3', '4'), change('modify', 'src/dates.ts', '2', '5', { observed: 'scan' })])
    expect(groups).toHaveLength(2)
    const dates = groups[0]
    expect(dates?.op).toBe('modify')
    expect(dates?.entries).toHaveLength(2)
    expect(dates?.before?.hash.startsWith('1')).toBe(true)
    expect(dates?.after?.hash.startsWith('5')).toBe(true)
    expect([dates?.added, dates?.removed]).toEqual([null, null])
    expect(dates?.observed).toEqual(['tool', 'scan'])
  })

  it('follows a rename: created then renamed is one created file at its new path', () => {
    const groups = groupTurnChanges([change('create', 'old.ts', null, 'a'), change('rename', 'new.ts', 'a', 'a', { from: ref('old.ts') })])
    expect(groups).toHaveLength(1)
    expect(groups[0]).toMatchObject({ path: 'new.ts', op: 'create', from: ref('old.ts'), renamed: true })
  })

  it('a plain rename keeps the server’s op and counts, and where it came from', () => {
    const [group] = groupTurnChanges([change('rename', 'b.ts', 'x', 'y', { from: ref('a.ts'), added: 2, removed: 0 })])
    expect(group).toMatchObject({ op: 'rename', from: ref('a.ts'), added: 2, removed: 0, renamed: true })
  })

  it('names what several edits add up to', () => {
    const op = (...items: FileChange[]) => groupTurnChanges(items)[0]?.op
    expect(op(change('create', 't', null, 'a'), change('delete', 't', 'a', null))).toBe('transient')
    expect(op(change('modify', 't', 'a', 'b'), change('delete', 't', 'b', null))).toBe('delete')
    expect(op(change('modify', 't', 'a', 'b'), change('modify', 't', 'b', 'a'))).toBe('unchanged')
    expect(op(change('modify', 't', 'a', 'b'), { ...change('modify', 't', 'b', 'a'), after: version('a', 0o100755) })).toBe('mode')
  })
})

describe('labels', () => {
  it('sums known counts and skips unknown ones', () => {
    expect(totals([{ added: 3, removed: 1 }, { added: null, removed: null }, { added: 2, removed: 0 }])).toEqual({ added: 5, removed: 1 })
  })

  it('says how many shell commands were not captured', () => {
    expect(uncapturedNotice(1)).toBe('1 shell command in this turn may have changed files Retrace did not see.')
    expect(uncapturedNotice(2)).toBe('2 shell commands in this turn may have changed files Retrace did not see.')
  })

  it('formats sizes and modes', () => {
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(2048)).toBe('2.0 KB')
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB')
    expect(formatMode(0o100755)).toBe('755')
  })
})
