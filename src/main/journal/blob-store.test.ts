import { randomBytes } from 'node:crypto'
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempRuntime } from '../testing/temp-runtime'
import { LOOKUP_BATCH } from '../store/batched-lookup'
import { BlobStore, INLINE_MAX_BYTES, sha256 } from './blob-store'
import { databaseOf } from '../store/raw-database'

describe('blob store', () => {
  let rt: ReturnType<typeof tempRuntime>
  let blobs: BlobStore
  beforeEach(() => {
    rt = tempRuntime()
    blobs = new BlobStore(rt.store.blobs, join(rt.store.dataDir, 'blobs'))
  })
  afterEach(() => rt.dispose())

  const big = (seed: number) => Buffer.from([...Array(INLINE_MAX_BYTES + 5000).keys()].map((i) => (i * seed) % 251))

  it('stores identical content once, small inline and large as a file, and reads both back verified', async () => {
    const small = blobs.putBuffer(Buffer.from('hello'))
    expect(blobs.putBuffer(Buffer.from('hello'))).toEqual(small)
    expect(small.hash).toBe(sha256(Buffer.from('hello')))
    const content = big(7)
    const path = join(rt.store.dataDir, 'input.bin')
    writeFileSync(path, content)
    const large = await blobs.putFile(path)
    expect(await blobs.putFile(path)).toEqual(large)
    expect(databaseOf(rt.store).prepare('SELECT storage, count(*) AS n FROM blobs GROUP BY storage ORDER BY storage').all()).toEqual([
      { storage: 'file', n: 1 },
      { storage: 'inline', n: 1 }
    ])
    expect(blobs.read(large.hash).equals(content)).toBe(true)
    expect(readFileSync(blobs.filePath(large.hash)).length).toBeLessThan(content.length) // compressed
    const out = join(rt.store.dataDir, 'out.bin')
    await blobs.writeTo(large.hash, out)
    expect(readFileSync(out).equals(content)).toBe(true)
  })

  it('deflates small compressible content inline, keeps incompressible content raw, and reads both back', () => {
    const text = Buffer.from('export const answer = 42\n'.repeat(400))
    const noise = randomBytes(4000)
    const packed = blobs.putBuffer(text)
    const raw = blobs.putBuffer(noise)
    const rows = databaseOf(rt.store).prepare('SELECT hash, encoding, length(data) AS stored FROM blobs').all() as { hash: string; encoding: string; stored: number }[]
    expect(rows.find((r) => r.hash === packed.hash)).toMatchObject({ encoding: 'deflate' })
    expect(rows.find((r) => r.hash === packed.hash)?.stored).toBeLessThan(text.length / 10)
    expect(rows.find((r) => r.hash === raw.hash)).toMatchObject({ encoding: 'raw', stored: noise.length })
    expect(blobs.read(packed.hash).equals(text)).toBe(true)
    expect(blobs.read(raw.hash).equals(noise)).toBe(true)
    databaseOf(rt.store).prepare('UPDATE blobs SET data = ? WHERE hash = ?').run(Buffer.from('not deflate data'), packed.hash)
    expect(() => blobs.read(packed.hash)).toThrow(expect.objectContaining({ code: 'BLOB_UNAVAILABLE' }) as Error)
  })

  it('tells which of many blobs are missing, in batches: no row, or a file blob without its file', () => {
    const inline = blobs.putBuffer(Buffer.from('inline')).hash
    const fileKept = blobs.putBuffer(big(5)).hash
    const fileLost = blobs.putBuffer(big(9)).hash
    rmSync(blobs.filePath(fileLost))
    const neverStored = Array.from({ length: LOOKUP_BATCH + 5 }, (_, i) => sha256(Buffer.from(`never ${i}`)))
    const missing = blobs.unavailableOf([inline, fileKept, fileLost, ...neverStored])
    expect(missing.has(fileLost)).toBe(true)
    expect([inline, fileKept].some((hash) => missing.has(hash))).toBe(false)
    expect(neverStored.every((hash) => missing.has(hash))).toBe(true) // the ones past the first batch too
    expect(missing.size).toBe(neverStored.length + 1)
    expect([inline, fileKept, fileLost].map((hash) => blobs.available(hash))).toEqual([true, true, false]) // as one by one
  })

  it('looks up many blobs together: which have no row, and what inline ones hold as stored', () => {
    const text = Buffer.from('export const answer = 42\n'.repeat(400)) // stored deflated
    const noise = randomBytes(3000) // stored raw
    const [packed, raw] = [blobs.putBuffer(text).hash, blobs.putBuffer(noise).hash]
    const fileLost = blobs.putBuffer(big(21)).hash
    rmSync(blobs.filePath(fileLost))
    const neverStored = Array.from({ length: LOOKUP_BATCH + 5 }, (_, i) => sha256(Buffer.from(`absent ${i}`)))
    const everything = [packed, raw, fileLost, ...neverStored]

    const absent = blobs.absentOf(everything)
    expect(absent).toEqual(new Set(neverStored)) // a file blob whose file is gone still has its row, as `has` says
    expect(everything.map((hash) => blobs.has(hash))).toEqual(everything.map((hash) => !absent.has(hash)))

    const contents = blobs.inlineContentsOf(everything)
    expect([...contents.keys()].sort()).toEqual([packed, raw, fileLost].sort())
    expect(contents.get(fileLost)).toBeNull() // stored as a file: written by the main thread, streamed
    for (const hash of [packed, raw]) expect(contents.get(hash)).toEqual(blobs.inlineContent(hash)) // as one by one
    expect(contents.get(packed)?.encoding).toBe('deflate')
    expect(contents.get(raw)?.encoding).toBe('raw')
  })

  it('refuses a corrupt or missing blob with a clear error and writes nothing (R2)', async () => {
    const inline = blobs.putBuffer(Buffer.from('original'))
    databaseOf(rt.store).prepare('UPDATE blobs SET data = ? WHERE hash = ?').run(Buffer.from('tampered'), inline.hash)
    expect(() => blobs.read(inline.hash)).toThrow(expect.objectContaining({ code: 'BLOB_UNAVAILABLE', message: expect.stringContaining('does not match its hash') as string }) as Error)

    const large = blobs.putBuffer(big(11))
    writeFileSync(blobs.filePath(large.hash), gzipSync(big(13)))
    const target = join(rt.store.dataDir, 'target.bin')
    await expect(blobs.writeTo(large.hash, target)).rejects.toMatchObject({ code: 'BLOB_UNAVAILABLE' })
    expect(readdirSync(rt.store.dataDir)).not.toContain('target.bin')

    rmSync(blobs.filePath(large.hash))
    expect(() => blobs.read(large.hash)).toThrow(/cannot be read/)
    expect(() => blobs.read('0'.repeat(64))).toThrow(/not in the store/)
  })

  it('cleans temp files left by an interrupted write, and collects blobs nothing refers to', () => {
    writeFileSync(join(blobs.tempDir, 'half-written.tmp'), 'partial')
    expect(blobs.cleanTemp()).toBe(1)
    expect(readdirSync(blobs.tempDir)).toEqual([])
    const orphan = blobs.putBuffer(big(3))
    const used = blobs.putBuffer(Buffer.from('referenced'))
    const workspaceId = rt.store.workspaces.open(rt.store.dataDir, 'ws')
    const scope = databaseOf(rt.store).prepare("INSERT INTO journal_scopes (workspace_id, kind, created_at) VALUES (?, 'turn', 0)").run(workspaceId).lastInsertRowid
    databaseOf(rt.store).prepare("INSERT INTO journal_entries (scope_id, op, path, kind_after, hash_after, observed, created_at) VALUES (?, 'create', ?, 'file', ?, 'tool', 0)").run(scope, Buffer.from('x'), used.hash)
    expect(blobs.collectGarbage()).toEqual({ removed: 0, bytes: 0 }) // too young: may belong to a capture in progress
    expect(blobs.collectGarbage(-1)).toEqual({ removed: 1, bytes: orphan.size })
    expect(blobs.has(orphan.hash)).toBe(false)
    expect(() => readFileSync(blobs.filePath(orphan.hash))).toThrow()
    expect(blobs.read(used.hash).toString()).toBe('referenced')
  })

  it('keeps a blob any referrer names (an entry before or after, a scanned file, a dictionary), and enforces foreign keys again after', () => {
    const db = databaseOf(rt.store)
    const put = (text: string) => blobs.putBuffer(Buffer.from(text)).hash
    const [before, after, scanned, dictionary, orphan] = [put('before'), put('after'), put('scanned'), put('dictionary'), put('orphan')]
    const workspaceId = rt.store.workspaces.open(rt.store.dataDir, 'ws')
    const scope = db.prepare("INSERT INTO journal_scopes (workspace_id, kind, created_at) VALUES (?, 'turn', 0)").run(workspaceId).lastInsertRowid
    db.prepare("INSERT INTO journal_entries (scope_id, op, path, kind_before, hash_before, observed, created_at) VALUES (?, 'delete', ?, 'file', ?, 'scan', 0)").run(scope, Buffer.from('gone'), before)
    db.prepare("INSERT INTO journal_entries (scope_id, op, path, kind_after, hash_after, observed, created_at) VALUES (?, 'create', ?, 'file', ?, 'scan', 0)").run(scope, Buffer.from('new'), after)
    db.prepare("INSERT INTO file_states (workspace_id, path, kind, size, mode, hash, mtime_ns, ctime_ns, ino) VALUES (?, ?, 'file', 7, 420, ?, 0, 0, 1)").run(workspaceId, Buffer.from('kept'), scanned)
    const dictionaryId = db.prepare('INSERT INTO deflate_dictionaries (hash) VALUES (?)').run(dictionary).lastInsertRowid
    db.prepare('UPDATE workspaces SET deflate_dictionary_id = ? WHERE id = ?').run(dictionaryId, workspaceId) // a dictionary nothing uses goes too
    expect(blobs.collectGarbage(-1)).toEqual({ removed: 1, bytes: 'orphan'.length })
    expect([before, after, scanned, dictionary].map((hash) => blobs.has(hash))).toEqual([true, true, true, true])
    expect(blobs.has(orphan)).toBe(false)
    // The delete ran unenforced; the connection enforces foreign keys again: an entry naming a missing blob is refused.
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(() => db.prepare("INSERT INTO journal_entries (scope_id, op, path, kind_after, hash_after, observed, created_at) VALUES (?, 'create', ?, 'file', ?, 'scan', 0)").run(scope, Buffer.from('x'), orphan)).toThrow(/FOREIGN KEY/)
  })
})
