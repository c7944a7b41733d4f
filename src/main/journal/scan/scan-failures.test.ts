import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { key, scanFixture, type ScanFixture } from './testing/scan-fixture'
import { databaseOf } from '../../store/raw-database'

let fx: ScanFixture
let fakes: string
beforeEach(() => {
  fx = scanFixture()
})
afterEach(() => fx.dispose())
beforeAll(() => {
  fakes = mkdtempSync(join(tmpdir(), 'retrace-fake-worker-'))
})
afterAll(() => rmSync(fakes, { recursive: true, force: true }))

/** A stand-in worker speaking the protocol badly, to test how the parent reacts. */
function fakeWorker(name: string, body: string): string {
  const path = join(fakes, `${name}.mjs`)
  writeFileSync(path, `import { parentPort } from 'node:worker_threads'\n${body}\n`)
  return path
}

describe('scan failures', () => {
  it('rejects with IO_ERROR naming the path the worker could not read, and records nothing', async () => {
    fx.write('a.txt')
    await fx.scan()
    const rows = fx.rows()
    const workerPath = fakeWorker('error', `parentPort.postMessage({ type: 'error', key: 'src/broken.bin', message: 'EIO: i/o error, read' })`)
    await expect(fx.scan({ workerPath })).rejects.toMatchObject({ code: 'IO_ERROR', message: 'The workspace scan could not read src/broken.bin: EIO: i/o error, read' })
    expect(fx.rows()).toEqual(rows)
  })

  it('rejects with IO_ERROR when the worker crashes or exits without finishing', async () => {
    const crash = fakeWorker('crash', `throw new Error('boom')`)
    await expect(fx.scan({ workerPath: crash })).rejects.toMatchObject({ code: 'IO_ERROR', message: expect.stringContaining('boom') as string })
    const silent = fakeWorker('silent', '')
    await expect(fx.scan({ workerPath: silent })).rejects.toMatchObject({ code: 'IO_ERROR', message: expect.stringContaining('stopped unexpectedly') as string })
  })

  it('refuses content that does not match the hash the worker claimed, storing nothing of that batch', async () => {
    const workerPath = fakeWorker(
      'liar',
      `const buffer = new TextEncoder().encode('real bytes').buffer
       const file = { key: 'x.txt', kind: 'file', size: 10, mode: 420, hash: '0'.repeat(64), mtimeNs: 1n, ctimeNs: 1n, ino: 1n, source: 'inline', offset: 0, packed: null, temp: null, racy: false }
       parentPort.postMessage({ type: 'batch', files: [file], buffer }, [buffer])
       parentPort.postMessage({ type: 'done', skipped: [], truncated: false, counts: { filesSeen: 1, filesHashed: 1, bytesHashed: 10, reusedFromCache: 0 } })`
    )
    await expect(fx.scan({ workerPath })).rejects.toMatchObject({ code: 'INTERNAL' })
    expect(databaseOf(fx.rt.store).prepare('SELECT count(*) FROM blobs').pluck().get()).toBe(0)
    expect(fx.rows()).toEqual([])
  })

  it('skips a path too long for the operating system and scans the rest', async () => {
    fx.write('ok.txt')
    const segment = 'd'.repeat(250)
    // mkdir relative to each new folder: the absolute path ends up longer than PATH_MAX (4096).
    execFileSync('bash', ['-c', `cd "$1" && for i in $(seq 20); do mkdir ${segment} && cd ${segment}; done && echo deep > deep.txt`, 'bash', fx.root])
    try {
      const result = await fx.scan()
      expect([...result.files.keys()]).toEqual([key('ok.txt')])
      expect(result.skipped).toHaveLength(1)
      expect(result.skipped[0]).toMatchObject({ folder: true, reason: 'its path is too long for the operating system' })
    } finally {
      execFileSync('rm', ['-rf', join(fx.root, segment)]) // rm walks relative to each folder; rmSync cannot
    }
  })

  it.skipIf(process.getuid?.() === 0)('skips an unreadable folder and an unreadable file with reasons (run as non-root)', async () => {
    fx.write('locked/inside.txt')
    fx.write('secret.txt')
    fx.write('open.txt')
    chmodSync(join(fx.root, 'locked'), 0o000)
    chmodSync(join(fx.root, 'secret.txt'), 0o000)
    try {
      const result = await fx.scan()
      expect([...result.files.keys()]).toEqual([key('open.txt')])
      expect(result.skipped).toEqual([
        { path: 'secret.txt', key: key('secret.txt'), folder: false, reason: 'permission denied: the file could not be read' },
        { path: 'locked', key: key('locked'), folder: true, reason: 'permission denied: the folder could not be read' }
      ])
    } finally {
      chmodSync(join(fx.root, 'locked'), 0o755)
    }
  })
})
