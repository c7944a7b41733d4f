import { randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir, tempRuntime } from '../../testing/temp-runtime'
import { BlobStore, sha256 } from '../blob-store'
import { scanWorkspace } from './scan'
import { scanFixture, type ScanFixture } from './test-fixture'

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

describe('the deflate helper thread', () => {
  const fixtures: ScanFixture[] = []
  afterEach(() => {
    for (const fx of fixtures.splice(0)) fx.dispose()
  })

  /** 300 compressible files of ~10 KB: 3 MB, more than the helper's backlog, so the walk packs some itself too. */
  function workspace(): { fx: ScanFixture; contents: Buffer[] } {
    const fx = scanFixture()
    fixtures.push(fx)
    const contents = Array.from({ length: 300 }, (_, n) => Buffer.from(`export const row${n} = ${JSON.stringify({ n, label: `row ${n}` })}\n`.repeat(250 + (n % 7))))
    contents.forEach((content, n) => fx.write(`rows/row-${String(n).padStart(3, '0')}.ts`, content))
    return { fx, contents }
  }
  const storedOf = (fx: ScanFixture, content: Buffer) =>
    fx.rt.store.db.prepare('SELECT encoding, dictionary_id IS NOT NULL AS withDictionary, data FROM blobs WHERE hash = ?').get(sha256(content)) as { encoding: string; withDictionary: number; data: Buffer }

  it('stores exactly what the walk stores when it packs alone', async () => {
    const helped = workspace()
    const alone = workspace()
    await helped.fx.scan()
    await alone.fx.scan({ deflateWorkerPath: null })
    for (const [n, content] of helped.contents.entries()) {
      const withHelper = storedOf(helped.fx, content)
      const withoutHelper = storedOf(alone.fx, alone.contents[n] as Buffer)
      expect(withHelper.encoding).toBe('deflate')
      expect(withHelper).toEqual(withoutHelper)
      expect(helped.fx.blobs.read(sha256(content)).equals(content)).toBe(true)
    }
  })

  it('that fails leaves the files it was given raw, and the scan whole and byte-exact', async () => {
    const { fx, contents } = workspace()
    const broken = tempDir('retrace-broken-helper-')
    const script = join(broken.path, 'deflate-worker.mjs')
    writeFileSync(script, "throw new Error('this helper cannot start')\n")
    try {
      const result = await fx.scan({ deflateWorkerPath: script })
      expect(result.files.size).toBe(contents.length)
      const encodings = contents.map((content) => storedOf(fx, content).encoding)
      expect(encodings).toContain('raw') // handed to the helper before it failed: kept raw, not lost
      for (const content of contents) expect(fx.blobs.read(sha256(content)).equals(content)).toBe(true)
    } finally {
      broken.dispose()
    }
  })
})
