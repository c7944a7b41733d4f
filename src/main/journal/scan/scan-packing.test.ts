import { randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempRuntime } from '../../testing/temp-runtime'
import { BlobStore, sha256 } from '../blob-store'
import { scanWorkspace } from './scan'

describe('scan content packing', () => {
  let rt: ReturnType<typeof tempRuntime>
  afterEach(() => rt.dispose())

  it('stores compressible small files deflated by the worker and incompressible ones raw, both byte-exact', async () => {
    rt = tempRuntime()
    const root = join(rt.store.dataDir, 'ws')
    mkdirSync(root)
    const text = Buffer.from('const value = compute(input)\n'.repeat(300))
    const noise = randomBytes(6000)
    writeFileSync(join(root, 'code.ts'), text)
    writeFileSync(join(root, 'noise.bin'), noise)
    const blobs = new BlobStore(rt.store.db, join(rt.store.dataDir, 'blobs'))
    const workspaceId = rt.store.workspaces.open(root, 'ws')
    await scanWorkspace({ root, workspaceId, db: rt.store.db, blobs })
    const encoding = (content: Buffer) => rt.store.db.prepare('SELECT encoding FROM blobs WHERE hash = ?').pluck().get(sha256(content))
    expect(encoding(text)).toBe('deflate')
    expect(encoding(noise)).toBe('raw')
    expect(blobs.read(sha256(text)).equals(text)).toBe(true)
    expect(blobs.read(sha256(noise)).equals(noise)).toBe(true)
  })
})
