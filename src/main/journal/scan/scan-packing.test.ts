import { randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir, tempRuntime } from '../../testing/temp-runtime'
import { BlobStore, sha256 } from '../blob-store'
import { scanWorkspace } from './scan'
import { scanFixture, type ScanFixture } from './testing/scan-fixture'
import { databaseOf } from '../../store/raw-database'

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
    const blobs = new BlobStore(rt.store.blobs, join(rt.store.dataDir, 'blobs'))
    const workspaceId = rt.store.workspaces.open(root, 'ws')
    await scanWorkspace({ root, workspaceId, store: rt.store, blobs })
    const encoding = (content: Buffer) => databaseOf(rt.store).prepare('SELECT encoding FROM blobs WHERE hash = ?').pluck().get(sha256(content))
    expect(encoding(text)).toBe('deflate')
    expect(encoding(noise)).toBe('raw')
    expect(blobs.read(sha256(text)).equals(text)).toBe(true)
    expect(blobs.read(sha256(noise)).equals(noise)).toBe(true)
  })
})

describe('the deflate helper thread', () => {
  const fixtures: ScanFixture[] = []
  const folders: { dispose(): void }[] = []
  afterEach(() => {
    for (const fx of fixtures.splice(0)) fx.dispose()
    for (const folder of folders.splice(0)) folder.dispose()
  })

  /** `count` compressible files of ~10 KB, each different. */
  function workspace(count = 300, tag = 'row'): { fx: ScanFixture; contents: Buffer[] } {
    const fx = scanFixture()
    fixtures.push(fx)
    const contents = Array.from({ length: count }, (_, n) => Buffer.from(`export const ${tag}${n} = ${JSON.stringify({ n, label: `${tag} ${n}` })}\n`.repeat(250 + (n % 7))))
    contents.forEach((content, n) => fx.write(`rows/${tag}-${String(n).padStart(3, '0')}.ts`, content))
    return { fx, contents }
  }
  const storedOf = (fx: ScanFixture, content: Buffer) =>
    databaseOf(fx.rt.store).prepare('SELECT encoding, dictionary_id IS NOT NULL AS withDictionary, data FROM blobs WHERE hash = ?').get(sha256(content)) as { encoding: string; withDictionary: number; data: Buffer }
  /** A scan that starts the helper at once, then time for its thread to start: the next scan hands it files from the first. */
  async function startHelper(deflateWorkerPath?: string): Promise<void> {
    await workspace(3, 'warm').fx.scan({ deflateHelperFromBytes: 0, ...(deflateWorkerPath ? { deflateWorkerPath } : {}) })
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }

  it('stores exactly what the walk stores when it packs alone', async () => {
    await startHelper()
    const helped = workspace()
    const alone = workspace()
    await helped.fx.scan({ deflateHelperFromBytes: 0 })
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
    // A helper that starts, then dies at the first file it is given.
    const broken = tempDir('retrace-broken-helper-')
    folders.push(broken)
    const script = join(broken.path, 'deflate-worker.mjs')
    writeFileSync(script, "import { parentPort, workerData } from 'node:worker_threads'\nparentPort.on('message', (m) => { if (m.type === 'pack') process.exit(1) })\nAtomics.store(workerData.ready, 0, 1)\n")
    await startHelper(script)
    const { fx, contents } = workspace()
    const result = await fx.scan({ deflateWorkerPath: script, deflateHelperFromBytes: 0 })
    expect(result.files.size).toBe(contents.length)
    const encodings = contents.map((content) => storedOf(fx, content).encoding)
    expect(encodings).toContain('raw') // handed to the helper before it failed: kept raw, not lost
    expect(encodings).toContain('deflate') // the rest the walk packed itself
    for (const content of contents) expect(fx.blobs.read(sha256(content)).equals(content)).toBe(true)
  })

  it('that cannot start costs nothing: the walk packs every file itself', async () => {
    const nothing = tempDir('retrace-no-helper-')
    folders.push(nothing)
    const script = join(nothing.path, 'deflate-worker.mjs')
    writeFileSync(script, "throw new Error('this helper cannot start')\n")
    const { fx, contents } = workspace(40)
    await fx.scan({ deflateWorkerPath: script, deflateHelperFromBytes: 0 }) // starts one, which fails: the walk packs everything itself
    expect(contents.map((content) => storedOf(fx, content).encoding)).toEqual(contents.map(() => 'deflate'))
    for (const content of contents) expect(fx.blobs.read(sha256(content)).equals(content)).toBe(true)
  })
})
