import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { deflateRawSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RetraceError } from '../../../shared/contract'
import { sha256 } from '../blob-store'
import { INLINE_DEFLATE } from '../shared-constants.mts'
import { DICTIONARY_BYTES } from '../deflate-dictionary'
import { scanFixture, settle, type ScanFixture } from './testing/scan-fixture'
import { databaseOf } from '../../store/raw-database'

let fx: ScanFixture
beforeEach(() => {
  fx = scanFixture()
})
afterEach(() => fx.dispose())

/** A small module of a project whose files share their imports and vocabulary, as real ones do. */
function moduleSource(n: number): string {
  const lines = [
    "import { createStore, type StoreOptions } from '../store/create-store'",
    "import { formatCurrency, formatDate, parseAmount } from '../lib/format'",
    "import type { Invoice, InvoiceLine, Customer } from '../domain/invoice'",
    ''
  ]
  for (let i = 0; i < 12; i++) {
    lines.push(`export function invoiceTotal${n}_${i}(invoice: Invoice, options: StoreOptions): number {`)
    lines.push(`  const lines: InvoiceLine[] = invoice.lines.filter((line) => line.amount > ${i})`)
    lines.push(`  return lines.reduce((sum, line) => sum + parseAmount(line.amount) * ${n + i}, 0)`)
    lines.push('}')
  }
  return `${lines.join('\n')}\n`
}

const rowOf = (hash: string) =>
  databaseOf(fx.rt.store).prepare('SELECT encoding, dictionary_id AS dictionary, length(data) AS stored FROM blobs WHERE hash = ?').get(hash) as { encoding: string; dictionary: number | null; stored: number }
const dictionaryHash = (id: number | undefined) => databaseOf(fx.rt.store).prepare('SELECT hash FROM deflate_dictionaries WHERE id = ?').pluck().get(id) as string

describe('a workspace deflate dictionary', () => {
  it('is built by the first scan from its text files, used for the files after it and by later scans, and every file reads back exactly', async () => {
    const paths = Array.from({ length: 120 }, (_, n) => fx.write(`src/module-${String(n).padStart(3, '0')}.ts`, moduleSource(n)))
    fx.write('assets/logo.bin', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256))) // binary: not sampled
    const first = await fx.scan()

    const dictionary = fx.blobs.dictionaries.ofWorkspace(fx.workspaceId)
    expect(dictionary).not.toBeNull()
    expect(dictionary?.bytes.length).toBe(DICTIONARY_BYTES)
    expect(Buffer.from(dictionary?.bytes ?? []).includes(0)).toBe(false) // only text files' starts

    const rows = paths.map((path) => rowOf(sha256(readFileSync(path))))
    const withDictionary = rows.filter((row) => row.dictionary === dictionary?.id)
    // The first files filled the samples; every one after the dictionary was built used it.
    expect(withDictionary.length).toBeGreaterThan(40)
    for (const file of first.files.values()) expect(sha256(fx.blobs.read(file.hash))).toBe(file.hash)

    // Smaller than deflating each file alone, which is the point.
    const packedWith = paths.filter((_, i) => rows[i]?.dictionary !== null)
    const storedWith = packedWith.reduce((sum, path) => sum + rowOf(sha256(readFileSync(path))).stored, 0)
    const alone = packedWith.reduce((sum, path) => sum + deflateRawSync(readFileSync(path), INLINE_DEFLATE).length, 0)
    expect(storedWith).toBeLessThan(alone * 0.9)

    // A later scan is given the same dictionary: a new file uses it, and no new dictionary is made.
    await settle()
    const added = fx.write('src/module-new.ts', moduleSource(999))
    await fx.scan()
    expect(rowOf(sha256(readFileSync(added))).dictionary).toBe(dictionary?.id)
    expect(fx.blobs.dictionaries.ofWorkspace(fx.workspaceId)?.id).toBe(dictionary?.id)

    // Garbage collection keeps the dictionary while rows are deflated with it.
    fx.blobs.collectGarbage(-1)
    expect(fx.blobs.has(dictionaryHash(dictionary?.id))).toBe(true)
    expect(fx.blobs.read(sha256(readFileSync(added))).equals(readFileSync(added))).toBe(true)
  })

  it("deflates what a tool recorded in the workspace with the same dictionary", async () => {
    for (let n = 0; n < 120; n++) fx.write(`src/m${n}.ts`, moduleSource(n))
    await fx.scan()
    const dictionary = fx.blobs.dictionaries.ofWorkspace(fx.workspaceId)
    const sessionRowId = fx.rt.store.sessions.insert({ uid: 'tool-session', workspaceId: fx.workspaceId, source: 'native', title: 't', kind: 'main', createdAt: 1 })
    const written = Buffer.from(moduleSource(4242))
    fx.rt.journal.recordToolChange({ workspaceId: fx.workspaceId, sessionRowId, turn: 1 }, { path: 'src/tool-written.ts', before: null, after: written })
    expect(rowOf(sha256(written)).dictionary).toBe(dictionary?.id)
    expect(fx.rt.journal.blobs.read(sha256(written)).equals(written)).toBe(true)
  })

  it('is not built from a few small files (nothing to share), which are stored as before', async () => {
    const path = fx.write('README.md', moduleSource(1))
    await fx.scan()
    expect(fx.blobs.dictionaries.ofWorkspace(fx.workspaceId)).toBeNull()
    expect(rowOf(sha256(readFileSync(path)))).toMatchObject({ encoding: 'deflate', dictionary: null })
  })

  it('is collected as garbage once neither a row nor a workspace uses it', () => {
    const replaced = Buffer.alloc(DICTIONARY_BYTES, 'a')
    const current = Buffer.alloc(DICTIONARY_BYTES, 'b')
    const replacedId = fx.blobs.dictionaries.adopt(fx.workspaceId, replaced)
    const currentId = fx.blobs.dictionaries.adopt(fx.workspaceId, current)
    fx.blobs.collectGarbage(-1)
    expect(dictionaryHash(replacedId)).toBeUndefined()
    expect(fx.blobs.has(sha256(replaced))).toBe(false)
    expect(dictionaryHash(currentId)).toBe(sha256(current))
    expect(fx.blobs.has(sha256(current))).toBe(true)

    // A collected id is never given to another dictionary, even the newest one's: a process may
    // still hold the old dictionary under it.
    const other = fx.rt.store.workspaces.open(fx.rt.store.dataDir, 'another workspace')
    const newest = fx.blobs.dictionaries.adopt(other, Buffer.alloc(DICTIONARY_BYTES, 'c'))
    databaseOf(fx.rt.store).prepare('DELETE FROM workspaces WHERE id = ?').run(other)
    fx.blobs.collectGarbage(-1)
    expect(dictionaryHash(newest)).toBeUndefined()
    expect(fx.blobs.dictionaries.adopt(fx.workspaceId, Buffer.alloc(DICTIONARY_BYTES, 'd'))).toBeGreaterThan(newest)
  })

  it('refuses, with a clear error, a file whose dictionary is corrupt, and the next scan builds a new one', async () => {
    const paths = Array.from({ length: 120 }, (_, n) => fx.write(`lib/part-${n}.ts`, moduleSource(n)))
    await fx.scan()
    const dictionary = fx.blobs.dictionaries.ofWorkspace(fx.workspaceId)
    const victim = paths.map((path) => sha256(readFileSync(path))).find((hash) => rowOf(hash).dictionary !== null) ?? ''
    expect(rowOf(victim).dictionary).toBe(dictionary?.id)

    // Another process (no cache of the dictionary yet) finds it damaged on disk.
    databaseOf(fx.rt.store).prepare("UPDATE blobs SET encoding = 'raw', data = ? WHERE hash = ?").run(Buffer.from('not the dictionary'), dictionaryHash(dictionary?.id))
    const { BlobStore } = await import('../blob-store')
    const fresh = new BlobStore(fx.rt.store.blobs, join(fx.rt.store.dataDir, 'blobs'))
    let error: unknown = null
    try {
      fresh.read(victim)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(RetraceError)
    expect((error as RetraceError).code).toBe('BLOB_UNAVAILABLE')
    expect((error as RetraceError).message).toContain('the dictionary it was compressed with cannot be read')

    // The workspace no longer has a usable dictionary: the next scan samples another, and what it stores reads back.
    expect(fresh.dictionaries.ofWorkspace(fx.workspaceId)).toBeNull()
    await settle()
    const later = Array.from({ length: 120 }, (_, n) => fx.write(`lib/next-${n}.ts`, moduleSource(1000 + n)))
    await fx.scan({ blobs: fresh })
    const replacement = fresh.dictionaries.ofWorkspace(fx.workspaceId)
    expect(replacement?.id).not.toBe(dictionary?.id)
    const usingReplacement = later.map((path) => readFileSync(path)).filter((content) => rowOf(sha256(content)).dictionary === replacement?.id)
    expect(usingReplacement.length).toBeGreaterThan(40)
    for (const content of usingReplacement) expect(fresh.read(sha256(content)).equals(content)).toBe(true)
  })
})
