import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { keyOf, type RelPath } from '../../fs/paths'
import { LOOKUP_BATCH } from '../batched-lookup'
import { databaseOf } from '../raw-database'
import { openStore, type Store } from '../store'
import { type NewBlobRow } from './blobs'

const hashOf = (name: string) => name.padEnd(64, '0')

describe('rows of content-addressed snapshots and their deflate dictionaries (blobs)', () => {
  let dataDir: string
  let store: Store
  let workspaceId: number
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'retrace-blobs-'))
    store = openStore(dataDir)
    workspaceId = store.workspaces.open(join(dataDir, 'w'), 'w')
  })
  afterEach(() => {
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const inline = (name: string, createdAt = 100, fields: Partial<NewBlobRow> = {}): string => {
    const row: NewBlobRow = { hash: hashOf(name), size: 3, storage: 'inline', encoding: 'raw', dictionaryId: null, data: Buffer.from(name), createdAt, ...fields }
    store.blobs.insert(row)
    return row.hash
  }
  const onDisk = (name: string, createdAt = 100): string => inline(name, createdAt, { storage: 'file', data: null, size: 5000 })

  it('reads a row back as inserted, and keeps the first row of a hash', () => {
    const hash = inline('abc', 100, { encoding: 'deflate', size: 7 })
    inline('abc', 200, { size: 999, data: Buffer.from('other') }) // the same hash is the same content: ignored
    expect(store.blobs.row(hash)).toEqual({ hash, size: 7, storage: 'inline', encoding: 'deflate', dictionaryId: null, data: Buffer.from('abc') })
    const file = onDisk('big')
    expect(store.blobs.row(file)).toEqual({ hash: file, size: 5000, storage: 'file', encoding: 'raw', dictionaryId: null, data: null })
    expect([store.blobs.has(hash), store.blobs.has(hashOf('none'))]).toEqual([true, false])
    expect([store.blobs.size(file), store.blobs.size(hashOf('none'))]).toEqual([5000, null])
    expect(store.blobs.row(hashOf('none'))).toBeUndefined()
  })

  it('looks up many hashes at once, past one batch, leaving out those without a row', () => {
    const small = inline('small')
    const big = onDisk('big')
    const asked = [...Array.from({ length: LOOKUP_BATCH }, (_, i) => hashOf(`missing-${i}`)), small, big]
    expect(store.blobs.storageOf(asked)).toEqual(
      new Map([
        [small, 'inline'],
        [big, 'file']
      ])
    )
    expect(store.blobs.rowsOf(asked).map((row) => row.hash).sort()).toEqual([big, small].sort())
    expect(store.blobs.rowsOf([])).toEqual([])
  })

  it('adopts a dictionary once, whoever adopts it, and makes it the workspace one', () => {
    const dictionary = inline('dict')
    expect(store.blobs.dictionaryOfWorkspace(workspaceId)).toBeNull()
    const id = store.blobs.adoptDictionary(workspaceId, dictionary)
    expect(store.blobs.adoptDictionary(workspaceId, dictionary)).toBe(id)
    const other = store.workspaces.open(join(dataDir, 'other'), 'other')
    expect(store.blobs.adoptDictionary(other, dictionary)).toBe(id)
    expect([store.blobs.dictionaryOfWorkspace(workspaceId), store.blobs.dictionaryOfWorkspace(other)]).toEqual([id, id])
    expect(store.blobs.dictionaryHash(id)).toBe(dictionary)
    expect(store.blobs.dictionaryHash(id + 1)).toBeUndefined()
    expect(databaseOf(store).prepare('SELECT count(*) FROM deflate_dictionaries').pluck().get()).toBe(1)
  })

  it('knows the page size inline rows are laid out for', () => {
    expect(store.blobs.pageSize).toBe(databaseOf(store).pragma('page_size', { simple: true }))
    expect(store.blobs.pageSize).toBeGreaterThanOrEqual(512)
  })

  describe('collectUnreferenced', () => {
    it('deletes only the unreferenced rows created before the cutoff, and says which', () => {
      const old = inline('old', 100)
      const oldFile = onDisk('old-file', 100)
      const atCutoff = inline('at-cutoff', 500)
      const young = inline('young', 900)
      expect(store.blobs.collectUnreferenced(500).sort((a, b) => a.hash.localeCompare(b.hash))).toEqual(
        [
          { hash: old, size: 3, storage: 'inline' },
          { hash: oldFile, size: 5000, storage: 'file' }
        ].sort((a, b) => a.hash.localeCompare(b.hash))
      )
      expect([old, oldFile, atCutoff, young].map((hash) => store.blobs.has(hash))).toEqual([false, false, true, true])
      expect(store.blobs.collectUnreferenced(500)).toEqual([])
      // Foreign keys are enforced again afterwards.
      expect(databaseOf(store).pragma('foreign_keys', { simple: true })).toBe(1)
    })

    it('never deletes a row a journal entry, a scanned file, a recovery conflict or a dictionary refers to', () => {
      const [before, after, scanned, recovered, beforeRecovered, dictionary, loose] = ['before', 'after', 'scanned', 'recovered', 'before-recovered', 'dictionary', 'loose'].map((name) => inline(name))
      const scopeId = store.journal.openScope({ workspaceId, sessionRowId: null, turn: null, kind: 'rewind' })
      store.journal.addEntry({ scopeId, op: 'modify', path: Buffer.from('a') as RelPath, fromPath: null, before: { kind: 'file', hash: before ?? '', size: 3, mode: 0o644 }, after: { kind: 'file', hash: after ?? '', size: 3, mode: 0o644 }, observed: 'rewind' })
      const scannedPath = Buffer.from('s') as RelPath
      store.fileStates.save(workspaceId, new Map(), new Map([[keyOf(scannedPath), { path: scannedPath, kind: 'file', size: 3, mode: 0o644, hash: scanned ?? '', mtimeNs: 1n, ctimeNs: 1n, ino: 1n }]]), { racy: new Set(), complete: true })
      store.rewinds.insert({ id: 'r1', workspaceId, sessionRowId: null, targetTurn: null, undoOf: null, beforeScopeId: scopeId })
      store.rewinds.recordRecovery('r1', [{ path: Buffer.from('c') as RelPath, found: { kind: 'file', hash: recovered ?? '', size: 3, mode: 0o644 }, saved: true, before: { kind: 'file', hash: beforeRecovered ?? '', size: 3, mode: 0o644 } }])
      store.blobs.adoptDictionary(workspaceId, dictionary ?? '')

      expect(store.blobs.collectUnreferenced(Number.MAX_SAFE_INTEGER).map((blob) => blob.hash)).toEqual([loose])
      expect([before, after, scanned, recovered, beforeRecovered, dictionary].every((hash) => store.blobs.has(hash ?? ''))).toBe(true)
    })

    it('drops dictionaries neither a row nor a workspace uses, then their blobs; an id is never handed out again', () => {
      const used = inline('used-dict')
      const unused = inline('unused-dict')
      const usedId = store.blobs.adoptDictionary(workspaceId, used)
      const other = store.workspaces.open(join(dataDir, 'other'), 'other')
      const unusedId = store.blobs.adoptDictionary(other, unused)
      const compressed = inline('compressed', 100, { encoding: 'deflate', dictionaryId: usedId })
      // A journal entry keeps the compressed row, which keeps its dictionary.
      const scopeId = store.journal.openScope({ workspaceId, sessionRowId: null, turn: null, kind: 'rewind' })
      store.journal.addEntry({ scopeId, op: 'create', path: Buffer.from('a') as RelPath, fromPath: null, before: null, after: { kind: 'file', hash: compressed, size: 3, mode: 0o644 }, observed: 'rewind' })
      // The workspace moves on to the first dictionary: the second is now used by nobody.
      store.blobs.adoptDictionary(other, used)
      const beforeWorkspaceForgets = store.blobs.collectUnreferenced(Number.MAX_SAFE_INTEGER).map((blob) => blob.hash)
      expect(beforeWorkspaceForgets).toEqual([unused])
      expect(store.blobs.dictionaryHash(unusedId)).toBeUndefined()
      expect(store.blobs.dictionaryHash(usedId)).toBe(used)
      // A row still compressed with a dictionary keeps it even when no workspace uses it.
      databaseOf(store).prepare('UPDATE workspaces SET deflate_dictionary_id = NULL').run()
      expect(store.blobs.collectUnreferenced(Number.MAX_SAFE_INTEGER)).toEqual([])
      expect(store.blobs.dictionaryHash(usedId)).toBe(used)
      // AUTOINCREMENT: the dropped id is not reused for a new dictionary.
      expect(store.blobs.adoptDictionary(workspaceId, inline('new-dict'))).toBeGreaterThan(unusedId)
    })
  })
})
