import { randomBytes } from 'node:crypto'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { INLINE_MAX_BYTES, sha256 } from '../blob-store'
import { key, scanFixture, settle, type ScanFixture } from './testing/scan-fixture'
import type { ScanProgress } from './types'
import { databaseOf } from '../../store/raw-database'

let fx: ScanFixture
beforeEach(() => {
  fx = scanFixture()
})
afterEach(() => fx.dispose())

const storage = (hash: string): unknown => databaseOf(fx.rt.store).prepare('SELECT storage FROM blobs WHERE hash = ?').pluck().get(hash)

describe('limits, large files and cancelling', () => {
  it('streams a file larger than INLINE_MAX_BYTES into a file blob that reads back byte-exact (R11)', async () => {
    const big = randomBytes(INLINE_MAX_BYTES * 4 + 123)
    const edge = randomBytes(INLINE_MAX_BYTES)
    fx.write('big.bin', big)
    fx.write('edge.bin', edge)
    const result = await fx.scan()

    const file = result.files.get(key('big.bin'))
    expect(file).toMatchObject({ kind: 'file', size: big.length, hash: sha256(big) })
    expect(storage(sha256(big))).toBe('file')
    expect(existsSync(fx.blobs.filePath(sha256(big)))).toBe(true)
    expect(fx.blobs.read(sha256(big)).equals(big)).toBe(true)
    expect(storage(sha256(edge))).toBe('inline') // exactly the limit stays inline
    expect(fx.blobs.read(sha256(edge)).equals(edge)).toBe(true)
    expect(fx.tempFiles()).toEqual([]) // the worker's temp file was adopted, not left behind
  })

  it('skips files over maxFileBytes with a visible reason', async () => {
    fx.write('small.txt', 'x'.repeat(100))
    fx.write('huge.bin', Buffer.alloc(5000))
    const result = await fx.scan({ limits: { maxFileBytes: 1000 } })
    expect([...result.files.keys()]).toEqual([key('small.txt')])
    expect(result.skipped).toHaveLength(1)
    expect(result.skipped[0]).toMatchObject({ path: 'huge.bin', folder: false })
    expect(result.skipped[0]?.reason).toMatch(/larger than the .* file size limit/)
  })

  it('says so when maxFiles truncates the scan, and keeps the cache of files it did not reach', async () => {
    for (let i = 0; i < 10; i++) fx.write(`f${i}.txt`, `file ${i}`)
    await fx.scan()
    expect(fx.rows()).toHaveLength(10)
    const result = await fx.scan({ limits: { maxFiles: 4 } })
    expect(result.truncated).toBe(true)
    expect([...result.files.keys()].sort()).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt'].map((n) => key(n)))
    expect(fx.rows()).toHaveLength(10)
  })

  it('cancels mid-scan: rejects with CANCELLED, leaves file_states and the temp folder clean', async () => {
    fx.write('a.txt', 'first version')
    await fx.scan()
    const rowsBefore = fx.rows()
    fx.write('a.txt', 'second version, not to be recorded')
    // Random data gzips slowly: this file keeps the worker busy long enough to cancel it mid-read.
    fx.write('big.bin', randomBytes(48 * 1024 * 1024))
    const controller = new AbortController()
    const progress: ScanProgress[] = []
    const started = Date.now()
    const scan = fx.scan({
      signal: controller.signal,
      onProgress: (p) => {
        progress.push(p)
        if (p.bytesHashed > 0) controller.abort()
      }
    })
    await expect(scan).rejects.toMatchObject({ code: 'CANCELLED', message: 'The workspace scan was cancelled; nothing was recorded.' })
    expect(Date.now() - started).toBeLessThan(5000)
    expect(progress.length).toBeGreaterThan(0)
    expect(progress.every((p) => p.phase === 'scanning')).toBe(true)
    expect(progress[0]?.bytesHashed).toBeLessThan(48 * 1024 * 1024) // it really was mid-scan
    expect(fx.rows()).toEqual(rowsBefore)
    expect(fx.tempFiles()).toEqual([])
  })

  it('scans correctly again after a cancelled scan (whose worker is ended, not kept)', async () => {
    fx.write('a.txt', 'first')
    fx.write('big.bin', randomBytes(32 * 1024 * 1024))
    const controller = new AbortController()
    const scan = fx.scan({ signal: controller.signal, onProgress: (p) => p.bytesHashed > 0 && controller.abort() })
    await expect(scan).rejects.toMatchObject({ code: 'CANCELLED' })
    const result = await fx.scan()
    expect([...result.files.keys()].sort()).toEqual([key('a.txt'), key('big.bin')])
    expect(result.stats.filesHashed).toBe(2)
    expect(fx.tempFiles()).toEqual([])
  })

  it('runs two scans at once, each with its own results, and reuses workers afterwards', async () => {
    const other = scanFixture()
    try {
      for (let i = 0; i < 50; i++) fx.write(`mine/${i}.txt`, `mine ${i}`)
      for (let i = 0; i < 30; i++) other.write(`theirs/${i}.txt`, `theirs ${i}`)
      await settle() // so the second scan may trust the first one's stats
      const [mine, theirs] = await Promise.all([fx.scan(), other.scan()])
      expect(mine.files.size).toBe(50)
      expect(theirs.files.size).toBe(30)
      expect([...theirs.files.keys()].every((k) => k.startsWith('theirs/'))).toBe(true)
      fx.write('mine/0.txt', 'mine 0, edited')
      await settle()
      const again = await fx.scan()
      expect(again.stats).toMatchObject({ filesHashed: 1, reusedFromCache: 49 })
      expect(again.files.get(key('mine/0.txt'))?.hash).toBe(sha256(Buffer.from('mine 0, edited')))
      expect(again.files.get(key('mine/1.txt'))).toEqual(mine.files.get(key('mine/1.txt')))
    } finally {
      other.dispose()
    }
  })

  it('rejects with CANCELLED without starting when the signal is already aborted', async () => {
    fx.write('a.txt')
    await expect(fx.scan({ signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'CANCELLED' })
    expect(fx.rows()).toEqual([])
  })

  it('writes nothing to file_states when a scan finds an unchanged workspace', async () => {
    writeFileSync(join(fx.root, 'a.txt'), 'a')
    await new Promise((resolve) => setTimeout(resolve, 100))
    await fx.scan()
    const changes = databaseOf(fx.rt.store).prepare('SELECT total_changes()').pluck()
    const before = changes.get() as number
    const result = await fx.scan()
    expect(result.stats.reusedFromCache).toBe(1)
    expect(changes.get()).toBe(before)
  })
})
