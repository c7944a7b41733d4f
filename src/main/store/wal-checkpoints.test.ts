import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DATABASE_FILE, openStore, type Store } from './store'
import { databaseOf } from './raw-database'

describe('WAL checkpoints wait for an idle store', () => {
  let dataDir: string
  let store: Store
  beforeEach(() => {
    vi.useFakeTimers()
    dataDir = mkdtempSync(join(tmpdir(), 'retrace-wal-'))
    store = openStore(dataDir)
    databaseOf(store).exec('CREATE TABLE filler (data BLOB)')
    databaseOf(store).pragma('wal_checkpoint(TRUNCATE)')
  })
  afterEach(() => {
    store.close()
    vi.useRealTimers()
    rmSync(dataDir, { recursive: true, force: true })
  })

  // Written pages reach the database file only through a checkpoint: its size tells.
  const databaseBytes = () => statSync(join(dataDir, DATABASE_FILE)).size
  const write = () => databaseOf(store).prepare('INSERT INTO filler VALUES (?)').run(Buffer.alloc(64 * 1024, 1))

  it('leave automatic checkpoints only as a bound, far above what one rewind writes', () => {
    expect(databaseOf(store).pragma('wal_autocheckpoint', { simple: true })).toBe(8192)
  })

  it('checkpoint an idle store within a second, but never while a rewind runs', async () => {
    const before = databaseBytes()
    let finish = () => {}
    const rewind = store.walCheckpoints.deferWhile(() => {
      for (let i = 0; i < 20; i++) write()
      return new Promise<void>((resolve) => (finish = resolve))
    })
    vi.advanceTimersByTime(5000)
    expect(store.walCheckpoints.deferred).toBe(true)
    expect(databaseBytes(), 'no checkpoint while busy').toBe(before)
    finish()
    await rewind
    expect(store.walCheckpoints.deferred).toBe(false)
    vi.advanceTimersByTime(1000)
    expect(databaseBytes()).toBeGreaterThan(before + 20 * 64 * 1024)
  })

  it('raise the bound while a rewind runs: a commit past 32 MiB of log folds nothing back until the store is idle', async () => {
    const bound = () => databaseOf(store).pragma('wal_autocheckpoint', { simple: true })
    const before = databaseBytes()
    let finish = () => {}
    const rewind = store.walCheckpoints.deferWhile(() => new Promise<void>((resolve) => (finish = resolve)), { raiseBound: true })
    const capture = store.walCheckpoints.deferWhile(() => {
      for (let i = 0; i < 34 * 16; i++) write() // 34 MiB: past the usual bound, each insert its own commit
      return Promise.resolve()
    })
    await capture
    expect(bound()).toBe(4 * 8192)
    expect(databaseBytes(), 'no automatic checkpoint under the raised bound').toBe(before)
    finish()
    await rewind
    expect(bound(), 'the usual bound once no rewind runs').toBe(8192)
    vi.advanceTimersByTime(1000)
    expect(databaseBytes()).toBeGreaterThan(before + 34 * 1024 * 1024)
  })

  it('flush a durable transaction’s commit to the disk, and leave the others to the checkpoints', () => {
    const synchronous = () => databaseOf(store).pragma('synchronous', { simple: true })
    expect(synchronous()).toBe(1) // NORMAL
    expect(store.durableTransaction(() => (write(), synchronous()))).toBe(2) // FULL: the WAL is fsynced at commit
    expect(synchronous()).toBe(1)
    expect(() => store.durableTransaction(() => {
      throw new Error('rolled back')
    })).toThrow('rolled back')
    expect(synchronous()).toBe(1)
  })
})
