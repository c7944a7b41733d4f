import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { LOOKUP_BATCH } from '../batched-lookup'
import { BlobStore } from '../../journal/blob-store'
import { keyOf, type PathKey, type RelPath } from '../../fs/paths'
import { tempRuntime } from '../../testing/temp-runtime'
import { openStore } from '../store'
import { RACY_CTIME_NS, type FileState } from './file-states'
import { databaseOf } from '../raw-database'

describe('the stat cache of the last scan (file_states)', () => {
  let rt: ReturnType<typeof tempRuntime>
  beforeEach(() => {
    rt = tempRuntime()
  })
  afterEach(() => rt.dispose())

  const file = (path: Buffer, ino: bigint, hash: string): FileState => ({ path: path as RelPath, kind: 'file', size: 3, mode: 0o644, hash, mtimeNs: 1n, ctimeNs: 2n, ino })

  it('looks up many paths at once, in batches, and finds exactly those recorded, names that are not UTF-8 included', () => {
    const workspaceId = rt.store.workspaces.open(rt.store.dataDir, 'ws')
    const { hash } = new BlobStore(rt.store.blobs, join(rt.store.dataDir, 'blobs')).putBuffer(Buffer.from('abc'))
    const latin1 = Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9])])
    const recorded = [latin1, ...Array.from({ length: LOOKUP_BATCH + 10 }, (_, i) => Buffer.from(`dir/file-${i}.txt`))]
    const next = new Map<PathKey, FileState>(recorded.map((path, i) => [keyOf(path), file(path, BigInt(i) + 2n ** 63n, hash)]))
    rt.store.fileStates.save(workspaceId, new Map(), next, { racy: new Set(), complete: true })

    const asked = [...recorded, Buffer.from('café'), Buffer.from('never-scanned.txt')] as RelPath[] // 'café' in UTF-8 is another name
    // Another connection looks them up in the table; the one that saved them, in what it saved.
    const other = openStore(rt.store.dataDir)
    try {
      const inTable = other.fileStates.statesOf(workspaceId, asked)
      const saved = rt.store.fileStates.statesOf(workspaceId, asked)
      for (const found of [inTable, saved]) {
        expect(found.size).toBe(recorded.length)
        expect(found.get(keyOf(latin1))?.path.equals(latin1)).toBe(true)
        expect(found.has(keyOf(Buffer.from('café')))).toBe(false)
        expect(found.get(keyOf(Buffer.from(`dir/file-${LOOKUP_BATCH + 9}.txt`)))?.ino).toBe(BigInt(LOOKUP_BATCH + 10) + 2n ** 63n)
      }
      // The same rows as loading the whole scan, inode numbers past 2^63 included.
      const all = other.fileStates.load(workspaceId)
      for (const [key, state] of inTable) expect(state).toEqual(all.get(key))
      expect(saved).toEqual(inTable)
      expect(other.fileStates.statesOf(workspaceId + 1, asked).size).toBe(0) // another workspace's scan is not this one's
      expect(rt.store.fileStates.statesOf(workspaceId + 1, asked).size).toBe(0)
    } finally {
      other.close()
    }
  })

  it('reads back what a save left without the table, exactly as the table holds it, until another connection writes it', () => {
    const workspaceId = rt.store.workspaces.open(rt.store.dataDir, 'ws')
    const { hash } = new BlobStore(rt.store.blobs, join(rt.store.dataDir, 'blobs')).putBuffer(Buffer.from('abc'))
    const files = ['a.txt', 'racy.txt', 'kept-by-a-truncated-scan.txt'].map((name, i) => file(Buffer.from(name), BigInt(i + 1), hash))
    const [a, racy, kept] = files as [FileState, FileState, FileState]
    rt.store.fileStates.save(workspaceId, new Map(), new Map(files.map((f) => [keyOf(f.path), f])), { racy: new Set(), complete: true })
    // A truncated scan that reached two of the three files, one of them read racily.
    const next = new Map([a, { ...racy, mtimeNs: 9n }].map((f) => [keyOf(f.path), f]))
    rt.store.fileStates.save(workspaceId, rt.store.fileStates.load(workspaceId), next, { racy: new Set([keyOf(racy.path)]), complete: false })

    const other = openStore(rt.store.dataDir)
    try {
      const stored = other.fileStates.load(workspaceId) // another connection reads the table itself
      expect(stored.get(keyOf(racy.path))?.ctimeNs).toBe(RACY_CTIME_NS)
      expect(stored.get(keyOf(kept.path))).toEqual(kept)
      expect(rt.store.fileStates.load(workspaceId)).toEqual(stored)
      expect(rt.store.fileStates.load(workspaceId + 1).size).toBe(0)
    } finally {
      other.close()
    }

    // Another connection changes a row: the next load reads the table again.
    const writer = openStore(rt.store.dataDir)
    try {
      databaseOf(writer).prepare('UPDATE file_states SET size = 42 WHERE workspace_id = ? AND path = ?').run(workspaceId, a.path)
    } finally {
      writer.close()
    }
    expect(rt.store.fileStates.load(workspaceId).get(keyOf(a.path))?.size).toBe(42)
    expect(rt.store.fileStates.statesOf(workspaceId, [a.path]).get(keyOf(a.path))?.size).toBe(42)
  })
})
