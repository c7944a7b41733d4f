import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import Database from 'better-sqlite3'

/**
 * Read an agent's SQLite database without touching it. SQLite creates `-wal`/`-shm` files beside
 * a WAL database even when it is opened read-only, and a running (or crashed) agent keeps its
 * newest transactions in the `-wal` only: so the file and its `-wal` are copied to a temporary
 * folder, the copy is opened (writable, so SQLite replays the WAL copy) and only queried, and the
 * copy is removed. Nothing ever appears beside the original.
 */
export function readDatabaseCopy<T>(path: string, read: (db: Database.Database) => T): T {
  const copy = mkdtempSync(join(tmpdir(), 'retrace-source-db-'))
  try {
    const local = join(copy, basename(path))
    copyFileSync(path, local)
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${local}-wal`)
    const db = new Database(local, { fileMustExist: true })
    try {
      return read(db)
    } finally {
      db.close()
    }
  } finally {
    rmSync(copy, { recursive: true, force: true })
  }
}
