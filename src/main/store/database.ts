import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { RetraceError } from '../../shared/contract'
import { loadMigrations, type Migration } from './migrations'

export type Db = Database.Database

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1')

/**
 * Open (creating if needed) the SQLite store at `dbPath` and bring its schema up to date.
 * A file that is not a healthy SQLite database, or was written by a newer Retrace, is refused
 * with a RetraceError and left exactly as it was: the checks run on a read-only connection
 * before anything can write.
 */
export function openDatabase(dbPath: string, migrations: Migration[] = loadMigrations()): Db {
  mkdirSync(dirname(dbPath), { recursive: true })
  if (existsSync(dbPath)) inspectExisting(dbPath, migrations.length)

  const db = new Database(dbPath)
  try {
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    db.pragma('busy_timeout = 5000')
    // Savepoints keep the pages they change in a sub-journal (an import applies each file's chunk
    // in one): in memory, not a temporary file. The store runs no VACUUM and sorts little.
    db.pragma('temp_store = MEMORY')
    migrate(db, migrations)
    return db
  } catch (error) {
    db.close()
    throw translateSqliteError(error, dbPath)
  }
}

/**
 * Run `work` as one transaction that writes, taking the write lock first (BEGIN IMMEDIATE). A
 * transaction that reads first and writes later cannot wait for another process's write to
 * end: SQLite refuses it at once ("database is locked"), since the other's commit would leave
 * it reading an older state. One that asks for the lock first waits the busy timeout, as any
 * single statement does, so two processes on one data folder (two `retrace import`s, the app
 * and the CLI) take turns. Inside another transaction it is a savepoint of that one.
 */
export function writeTransaction<T>(db: Db, work: () => T): T {
  return db.transaction(work).immediate()
}

/** Read-only look at an existing file: header, readable schema, schema version. */
function inspectExisting(dbPath: string, knownVersion: number): void {
  if (statSync(dbPath).size > 0 && !hasSqliteHeader(dbPath)) {
    throw corrupt(dbPath, 'it does not start with the SQLite header')
  }
  let db: Db | undefined
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true })
    db.prepare('SELECT count(*) FROM sqlite_schema').get()
    const version = db.pragma('user_version', { simple: true }) as number
    if (version > knownVersion) {
      throw new RetraceError(
        'STORE_NEWER_VERSION',
        `The Retrace database at ${dbPath} was written by a newer version of Retrace (schema ${version}; this version knows up to ${knownVersion}). ` +
          'Update Retrace, or start it with another data folder (--data-dir or RETRACE_HOME). The file was not changed.'
      )
    }
  } catch (error) {
    throw translateSqliteError(error, dbPath)
  } finally {
    db?.close()
  }
}

function hasSqliteHeader(path: string): boolean {
  const fd = openSync(path, 'r')
  try {
    const header = Buffer.alloc(SQLITE_HEADER.length)
    const read = readSync(fd, header, 0, header.length, 0)
    return read === header.length && header.equals(SQLITE_HEADER)
  } finally {
    closeSync(fd)
  }
}

/**
 * Apply pending migrations in one IMMEDIATE transaction, recording each one's hash so a
 * shipped migration that was later edited is detected instead of silently diverging.
 */
export function migrate(db: Db, migrations: Migration[]): void {
  const apply = db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, sha256 TEXT NOT NULL, applied_at INTEGER NOT NULL)`)
    const current = db.pragma('user_version', { simple: true }) as number
    if (current > migrations.length) {
      throw new RetraceError(
        'STORE_NEWER_VERSION',
        `This database has schema ${current}, newer than this version of Retrace knows (${migrations.length}).`
      )
    }
    const applied = db.prepare('SELECT version, sha256 FROM schema_migrations').all() as { version: number; sha256: string }[]
    for (const row of applied) {
      const known = migrations[row.version - 1]
      if (known && known.sha256 !== row.sha256) {
        throw new Error(`Migration ${row.version} (${known.name}) was edited after it was applied; add a new migration instead.`)
      }
    }
    const record = db.prepare('INSERT INTO schema_migrations (version, name, sha256, applied_at) VALUES (?, ?, ?, ?)')
    for (const migration of migrations.slice(current)) {
      db.exec(migration.sql)
      record.run(migration.version, migration.name, migration.sha256, Date.now())
      db.pragma(`user_version = ${migration.version}`)
    }
  })
  apply.immediate()
}

function corrupt(dbPath: string, why: string): RetraceError {
  return new RetraceError(
    'STORE_CORRUPT',
    `The Retrace database at ${dbPath} cannot be read: ${why}. It was left untouched; move it aside (or restore a backup) and start again, or use another data folder with --data-dir.`
  )
}

function translateSqliteError(error: unknown, dbPath: string): unknown {
  if (error instanceof RetraceError) return error
  const code = (error as { code?: unknown }).code
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') {
    return corrupt(dbPath, (error as Error).message)
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new RetraceError(
      'STORE_BUSY',
      `The Retrace database at ${dbPath} is locked by another process. Close the other Retrace window or server and try again.`
    )
  }
  return error
}
