import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempRuntime } from '../testing/temp-runtime'
import { deflateRawSync } from 'node:zlib'
import { BlobStore, INLINE_DEFLATE, sha256 } from './blob-store'
import { BlobWriterPool, blobWriters } from './blob-writers'

const ROOT = resolve(__dirname, '../../..')

describe('blob writer threads', () => {
  let rt: ReturnType<typeof tempRuntime>
  let blobs: BlobStore
  beforeEach(() => {
    rt = tempRuntime()
    blobs = new BlobStore(rt.store.db, join(rt.store.dataDir, 'blobs'))
  })
  afterEach(() => rt.dispose())
  afterAll(() => blobWriters.close())

  const target = (name: string) => join(rt.store.dataDir, name)

  it('write deflated and raw inline blobs, verified, with their mode, durable or not', async () => {
    const text = Buffer.from('export const answer = 42\n'.repeat(400)) // stored deflated
    const noise = randomBytes(4000) // stored raw
    const packed = blobs.putBuffer(text)
    const raw = blobs.putBuffer(noise)
    await blobs.writeTo(packed.hash, target('text.ts'), 0o755, { writers: blobWriters })
    await blobs.writeTo(raw.hash, target('noise.bin'), 0o600, { writers: blobWriters, durable: false })
    expect(readFileSync(target('text.ts')).equals(text)).toBe(true)
    expect(readFileSync(target('noise.bin')).equals(noise)).toBe(true)
    expect(statSync(target('text.ts')).mode & 0o777).toBe(0o755)
    expect(statSync(target('noise.bin')).mode & 0o777).toBe(0o600)
  })

  it('write a blob deflated with a workspace dictionary, in the thread and in-process alike', async () => {
    const dictionary = blobs.dictionaries.adopt(rt.store.workspaces.open(rt.store.dataDir, 'w'), Buffer.from('import { shared } from "../vocabulary"\n'.repeat(40)))
    const content = Buffer.from('import { shared } from "../vocabulary"\nexport const mine = shared + 1\n'.repeat(20))
    const deflated = deflateRawSync(content, { ...INLINE_DEFLATE, dictionary: blobs.dictionaries.bytes(dictionary) })
    blobs.putPacked(sha256(content), content.length, deflated, dictionary)
    await blobs.writeTo(sha256(content), target('threaded.ts'), 0o644, { writers: blobWriters })
    await blobs.writeTo(sha256(content), target('in-process.ts'), 0o644)
    expect(readFileSync(target('threaded.ts')).equals(content)).toBe(true)
    expect(readFileSync(target('in-process.ts')).equals(content)).toBe(true)
  })

  it('refuse a corrupt blob with the store’s clear error and leave no file (R2)', async () => {
    const blob = blobs.putBuffer(Buffer.from('original content'))
    rt.store.db.prepare('UPDATE blobs SET data = ? WHERE hash = ?').run(Buffer.from('tampered content'), blob.hash)
    await expect(blobs.writeTo(blob.hash, target('out.txt'), 0o644, { writers: blobWriters })).rejects.toMatchObject({
      code: 'BLOB_UNAVAILABLE',
      message: expect.stringContaining('does not match its hash') as string
    })
    const deflated = blobs.putBuffer(Buffer.from('x'.repeat(5000)))
    rt.store.db.prepare('UPDATE blobs SET data = ? WHERE hash = ?').run(Buffer.from('not deflate data'), deflated.hash)
    await expect(blobs.writeTo(deflated.hash, target('out.txt'), 0o644, { writers: blobWriters })).rejects.toMatchObject({
      code: 'BLOB_UNAVAILABLE',
      message: expect.stringContaining('cannot be decoded') as string
    })
    expect(readdirSync(rt.store.dataDir)).not.toContain('out.txt')
  })

  it('never write over an existing file, nor into a missing folder, and say why with the error code', async () => {
    const blob = blobs.putBuffer(Buffer.from('new content'))
    writeFileSync(target('taken.txt'), 'the user’s file')
    await expect(blobs.writeTo(blob.hash, target('taken.txt'), 0o644, { writers: blobWriters })).rejects.toMatchObject({ code: 'EEXIST' })
    expect(readFileSync(target('taken.txt'), 'utf8')).toBe('the user’s file')
    await expect(blobs.writeTo(blob.hash, target('missing/out.txt'), 0o644, { writers: blobWriters })).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('fail the writes of a thread that dies, and start a new thread for the next write', async () => {
    const dying = new BlobWriterPool(() => join(__dirname, 'testing', 'exit-worker.mjs'), 1)
    try {
      const job = { target: Buffer.from(target('never.txt')), mode: 0o644, hash: '0'.repeat(64), encoding: 'raw' as const, data: Buffer.from('x'), fsync: false }
      await expect(dying.write(job)).rejects.toThrow(/blob writer thread stopped \(exit code 3\)/)
      await expect(dying.write(job)).rejects.toThrow(/blob writer thread stopped/)
    } finally {
      await dying.close()
    }
  })

  it.each([
    ['started', 'started\n'],
    ['write', 'written on a writer thread\n']
  ])('do not keep a process alive once idle (%s)', (mode, output) => {
    const child = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite-node/dist/cli.mjs'), join(__dirname, 'testing', 'idle-pool-child.ts'), mode], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 })
    expect(child.signal, `${child.stderr}`).toBeNull() // not killed by the timeout
    expect(child.status, child.stderr).toBe(0)
    expect(child.stdout).toBe(output)
  })
})
