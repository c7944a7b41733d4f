import { describe, expect, it } from 'vitest'
import { displayPath, keyOf, type PathKey, type RelPath } from '../../fs/paths'
import { diffScans } from './diff'
import type { ScannedFile } from './types'

const file = (path: string | Buffer, hash: string, extra: Partial<ScannedFile> = {}): ScannedFile => ({
  path: (typeof path === 'string' ? Buffer.from(path) : path) as RelPath,
  kind: 'file',
  size: 1,
  mode: 0o644,
  hash,
  mtimeNs: 1n,
  ctimeNs: 1n,
  ino: 1n,
  ...extra
})
const scan = (...files: ScannedFile[]): Map<PathKey, ScannedFile> => new Map(files.map((f) => [keyOf(f.path), f]))
const ops = (before: Map<PathKey, ScannedFile>, after: Map<PathKey, ScannedFile>): string[] =>
  diffScans(before, after).map((c) => [c.op, c.fromPath ? displayPath(c.fromPath) : null, displayPath(c.path)].filter(Boolean).join(' '))

describe('diffScans', () => {
  it('tells modify (content or kind) from mode (permission bits only)', () => {
    const before = scan(file('content', 'h1'), file('kind', 'h2'), file('perm', 'h3'), file('both', 'h4'), file('same', 'h5'))
    const after = scan(
      file('content', 'h1b'),
      file('kind', 'h2', { kind: 'symlink' }),
      file('perm', 'h3', { mode: 0o755 }),
      file('both', 'h4b', { mode: 0o600 }),
      file('same', 'h5', { mtimeNs: 99n, ctimeNs: 99n, ino: 7n }) // a touch is not a change
    )
    expect(ops(before, after)).toEqual(['modify both', 'modify content', 'modify kind', 'mode perm'])
  })

  it('pairs renames by content and kind, each path once, in a deterministic order', () => {
    const before = scan(file('b-old', 'same'), file('a-old', 'same'), file('link-old', 'target', { kind: 'symlink' }), file('lonely', 'x'))
    const after = scan(file('z-new', 'same'), file('c-new', 'same'), file('d-new', 'same'), file('link-new', 'target'))
    // Two deleted copies of `same`, three created: the first two created (by path) take them in order;
    // a link and a file with the same hash are not a rename. Sorted by the (new) path.
    expect(ops(before, after)).toEqual(['rename a-old c-new', 'rename b-old d-new', 'create link-new', 'delete link-old', 'delete lonely', 'create z-new'])
    const reversed = new Map([...after].reverse())
    expect(ops(new Map([...before].reverse()), reversed)).toEqual(ops(before, after))
  })

  it('sorts by path bytes, so non-UTF-8 names have a stable place', () => {
    const high = Buffer.from([0x61, 0xff])
    const changes = diffScans(scan(), scan(file(high, 'h'), file('a', 'h2'), file('B', 'h3')))
    expect(changes.map((c) => c.path.toString('latin1'))).toEqual(['B', 'a', 'a\xff'])
    expect(changes.every((c) => c.op === 'create' && c.after !== undefined && c.before === undefined)).toBe(true)
  })
})
