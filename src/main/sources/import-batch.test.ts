import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStore, type Store } from '../store/store'
import { BatchCommitFailed, ImportBatch, type BatchedFile } from './import-batch'
import { databaseOf } from '../store/raw-database'
import Database from 'better-sqlite3'

describe('chunks of several files committed in one transaction', () => {
  let dataDir: string
  let store: Store
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'retrace-import-batch-'))
    store = openStore(dataDir)
  })
  afterEach(() => {
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const file = (): BatchedFile & { errors: unknown[] } => {
    const errors: unknown[] = []
    return { failed: false, errors, onFailed: (error) => errors.push(error) }
  }
  const workspace = (name: string) => () => void store.workspaces.open(join(dataDir, name), name)
  const names = () => (databaseOf(store).prepare('SELECT name FROM workspaces ORDER BY name').pluck().all() as string[])

  /** A batch past its first chunk, which commits alone (so a window lists the first sessions at once). */
  const started = (): ImportBatch => {
    const batch = new ImportBatch(store)
    batch.add(file(), workspace('first'), { bytes: 10, lines: 1 })
    expect(batch.pending).toBe(false)
    return batch
  }

  it('commits nothing until full or asked, then everything; a chunk that throws costs its own file only', () => {
    const batch = started()
    const [a, b] = [file(), file()]
    const done: string[] = []
    batch.add(a, workspace('a1'), { bytes: 10, lines: 1 })
    batch.add(b, () => {
      workspace('b1')()
      throw new Error('a bug in the importer')
    }, { bytes: 10, lines: 1 })
    batch.add(b, workspace('b2'), { bytes: 10, lines: 1 }) // follows a failed chunk of its file: dropped
    batch.add(a, workspace('a2'), { bytes: 10, lines: 1 })
    batch.whenCommitted(() => done.push('first four'))
    expect(names()).toEqual(['first']) // chunks are applied when the batch commits
    expect(done).toEqual([])
    batch.commit()
    expect(done).toEqual(['first four'])
    expect(names()).toEqual(['a1', 'a2', 'first'])
    expect(b.failed).toBe(true)
    expect(String(b.errors[0])).toContain('a bug in the importer')
    expect(a.errors).toEqual([])
    batch.whenCommitted(() => done.push('nothing queued: at once'))
    expect(done).toEqual(['first four', 'nothing queued: at once'])
  })

  it('commits by itself once it holds enough lines', () => {
    const batch = started()
    const a = file()
    batch.add(a, workspace('a1'), { bytes: 10, lines: 1999 })
    expect(batch.pending).toBe(true)
    batch.add(a, workspace('a2'), { bytes: 10, lines: 1 })
    expect(batch.pending).toBe(false)
    expect(names()).toEqual(['a1', 'a2', 'first'])
  })

  it('stops the import when its transaction cannot commit', () => {
    const batch = started()
    const a = file()
    // A constraint SQLite checks only at COMMIT: the batch's transaction fails, not one chunk.
    batch.add(a, () => {
      databaseOf(store).pragma('defer_foreign_keys = ON')
      databaseOf(store).prepare("INSERT INTO messages (session_id, seq, turn, role, content) VALUES (999, 0, 1, 'user', 'orphan')").run()
    }, { bytes: 10, lines: 1 })
    batch.add(a, workspace('a1'), { bytes: 10, lines: 1 })
    expect(() => batch.commit()).toThrow(BatchCommitFailed)
    expect(names()).toEqual(['first']) // nothing of the batch was kept
    expect(databaseOf(store).inTransaction).toBe(false)
  })

  it('stops on a full disk with a sentence naming the data folder and saying nothing was lost', () => {
    const batch = started()
    const a = file()
    // What better-sqlite3 throws when SQLite cannot grow the database or its log (SQLITE_FULL).
    const full = () => {
      throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL')
    }
    batch.add(a, full, { bytes: 10, lines: 1 })
    let thrown: unknown
    try {
      batch.commit()
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(BatchCommitFailed)
    expect((thrown as Error).message).toBe(
      `The imported lines could not be saved: disk full (ENOSPC): no space left to write in ${dataDir}; free some space there and try again. Nothing was lost: what earlier imports saved is kept, the agents' files are untouched, and the next import goes on from the last lines saved.`
    )
    expect(a.errors, 'the full disk is the import\'s failure, not this file\'s').toEqual([])
  })
})

