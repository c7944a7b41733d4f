import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RetraceError } from '../../shared/contract'
import { tempDir } from '../testing/temp-runtime'
import { migrate, openDatabase } from './database'
import { loadMigrations } from './migrations'

const migrations = loadMigrations()
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

/** The schema as SQLite records it, for comparing databases migrated by different routes. */
function schemaOf(db: Database.Database): string[] {
  return (db.prepare("SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all() as { type: string; name: string; sql: string | null }[]).map(
    (row) => `${row.type} ${row.name}: ${row.sql ?? ''}`
  )
}

describe('migrations', () => {
  let dir: ReturnType<typeof tempDir>
  beforeEach(() => (dir = tempDir()))
  afterEach(() => dir.dispose())

  it('are numbered from 001 without gaps, and a gap or a bad name is refused', () => {
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1))
    expect(() => loadMigrations({ './migrations/001_a.sql': '', './migrations/003_c.sql': '' })).toThrow(/without gaps/)
    expect(() => loadMigrations({ './migrations/1_a.sql': '' })).toThrow(/NNN_name/)
  })

  it('bring an empty database to the latest version in WAL mode with foreign keys on', () => {
    const db = openDatabase(join(dir.path, 'r.db'))
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length)
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000)
    const tables = schemaOf(db).join('\n')
    for (const table of ['workspaces', 'sessions', 'messages', 'checkpoints', 'messages_fts', 'schema_migrations']) {
      expect(tables).toContain(`table ${table}`)
    }
    db.close()
  })

  it.each(migrations.map((m) => m.version - 1))('upgrade a database at version %i to the same schema as a fresh one', (from) => {
    const fresh = openDatabase(join(dir.path, 'fresh.db'))
    const old = new Database(join(dir.path, 'old.db'))
    migrate(old, migrations.slice(0, from))
    expect(old.pragma('user_version', { simple: true })).toBe(from)
    old.close()
    const upgraded = openDatabase(join(dir.path, 'old.db'))
    expect(schemaOf(upgraded)).toEqual(schemaOf(fresh))
    expect(upgraded.pragma('user_version', { simple: true })).toBe(migrations.length)
    fresh.close()
    upgraded.close()
  })

  it('014 gives merges recorded before it the branch\'s last message as where they ended', () => {
    const old = new Database(join(dir.path, 'old.db'))
    migrate(old, migrations.slice(0, 13))
    old.exec(`INSERT INTO workspaces (id, path, name, created_at) VALUES (1, '/w', 'w', 0);
      INSERT INTO sessions (id, uid, workspace_id, source, title, kind, created_at, updated_at) VALUES (1, 'p', 1, 'native', 'p', 'main', 0, 0), (2, 'b', 1, 'native', 'b', 'branch', 0, 0);
      INSERT INTO messages (session_id, seq, turn, role, content) VALUES (2, 0, 1, 'user', 'a'), (2, 1, 1, 'assistant', 'b');
      INSERT INTO session_merges (branch_id, into_id, mode, first_seq, message_count, created_at) VALUES (2, 1, 'append', 0, 3, 5);`)
    old.close()
    const upgraded = openDatabase(join(dir.path, 'old.db'))
    expect(upgraded.prepare('SELECT through_seq, undo_state FROM session_merges').get()).toEqual({ through_seq: 1, undo_state: null })
    upgraded.close()
  })

  it('016 names the Codex rollouts imported before it by their file name, so a moved or compressed one continues', () => {
    const old = new Database(join(dir.path, 'old.db'))
    migrate(old, migrations.slice(0, 15))
    old.exec(`INSERT INTO workspaces (id, path, name, created_at) VALUES (1, '/w', 'w', 0);
      INSERT INTO import_files (workspace_id, source, path, dev, ino, head_sha256, offset, parser_state, import_state, imported_at) VALUES
        (1, 'codex', '/h/.codex/sessions/2026/01/02/rollout-2026-01-02T18-39-45-019b7f94.jsonl', 1, 1, 'x', 0, 'null', '{}', 0),
        (1, 'claude-code', '/h/.claude/projects/p/a.jsonl', 1, 2, 'x', 0, 'null', '{}', 0);`)
    old.close()
    const upgraded = openDatabase(join(dir.path, 'old.db'))
    expect(upgraded.prepare('SELECT source, content_key AS key, file_size AS size FROM import_files ORDER BY source').all()).toEqual([
      { source: 'claude-code', key: null, size: null },
      { source: 'codex', key: 'rollout-2026-01-02T18-39-45-019b7f94.jsonl', size: null }
    ])
    upgraded.close()
  })

  it('roll back entirely when a migration fails', () => {
    const db = new Database(join(dir.path, 'r.db'))
    const broken = [...migrations, { version: migrations.length + 1, name: 'broken', sql: 'CREATE TABLE ok_table (x); SELECT * FROM no_such_table;', sha256: 'x' }]
    expect(() => migrate(db, broken)).toThrow(/no_such_table/)
    expect(db.pragma('user_version', { simple: true })).toBe(0)
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name IN ('ok_table', 'sessions')").get()).toEqual({ n: 0 })
    db.close()
  })

  it('detect a migration edited after it was applied', () => {
    openDatabase(join(dir.path, 'r.db')).close()
    const edited = migrations.map((m, i) => (i === 0 ? { ...m, sha256: 'edited' } : m))
    expect(() => openDatabase(join(dir.path, 'r.db'), edited)).toThrow(/edited after it was applied/)
  })

  it('refuse a database written by a newer Retrace and leave the file untouched', () => {
    const path = join(dir.path, 'r.db')
    openDatabase(path).close()
    const db = new Database(path)
    db.pragma(`user_version = ${migrations.length + 5}`)
    db.pragma('journal_mode = DELETE')
    db.close()
    const before = sha(path)
    let error: unknown
    try {
      openDatabase(path)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(RetraceError)
    expect((error as RetraceError).code).toBe('STORE_NEWER_VERSION')
    expect((error as RetraceError).message).toContain(path)
    expect(sha(path)).toBe(before)
  })

  it.each([
    ['garbage bytes', Buffer.from('this is not a database at all, just text '.repeat(200))],
    ['a truncated SQLite file', null]
  ])('refuse a corrupt database (%s) and leave it untouched', (_label, content) => {
    const path = join(dir.path, 'r.db')
    if (content) {
      writeFileSync(path, content)
    } else {
      const good = openDatabase(path)
      good.pragma('journal_mode = DELETE')
      good.close()
      const bytes = readFileSync(path)
      // Keep the header, destroy the schema page.
      writeFileSync(path, Buffer.concat([bytes.subarray(0, 100), Buffer.alloc(bytes.length - 100, 0xff)]))
    }
    const before = sha(path)
    expect(() => openDatabase(path)).toThrow(expect.objectContaining({ code: 'STORE_CORRUPT' }) as Error)
    expect(sha(path)).toBe(before)
  })
})
