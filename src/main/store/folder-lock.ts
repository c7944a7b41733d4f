import { join } from 'node:path'
import Database from 'better-sqlite3'
import { privateFile } from './private-files'

export const FOLDER_LOCK_FILE = 'owner.lock'

/** An exclusive lock this process holds on a data folder until `release()` or its end. */
export interface FolderLock {
  release(): void
}

/**
 * Take the data folder's exclusive lock, or learn that another process (or another runtime of
 * this one) holds it: null then. The lock is an empty SQLite database held in exclusive locking
 * mode inside a transaction that is never committed, so the operating system's own file lock
 * does the work: it is dropped with the process, however the process ends, and a crashed owner
 * leaves nothing a successor must prove stale before taking over.
 */
export function lockDataFolder(dataDir: string): FolderLock | null {
  const file = join(dataDir, FOLDER_LOCK_FILE)
  const db = new Database(file, { timeout: 0 })
  try {
    // Nothing is ever written, so no journal file is needed beside it.
    db.pragma('journal_mode = MEMORY')
    db.pragma('locking_mode = EXCLUSIVE')
    db.exec('BEGIN EXCLUSIVE')
  } catch (error) {
    db.close()
    if (String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY')) return null
    throw new Error(`Retrace cannot lock its data folder (${file}): ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
  privateFile(file)
  let held = true
  return {
    release() {
      if (!held) return
      held = false
      db.close()
    }
  }
}
