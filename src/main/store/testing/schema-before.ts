import Database from 'better-sqlite3'
import { migrate } from '../database'
import { loadMigrations } from '../migrations'

const ORDER = ['trigger', 'view', 'index', 'table']

/**
 * Turn a store back into what it was before migration `version`, to test that migration on a
 * store the code before it made: the later migrations' records go, and the tables, indexes,
 * views and triggers they created are dropped (found by comparing with a store migrated only
 * that far). None of the migrations this is used across alters an existing table.
 */
export function schemaBefore(db: Database.Database, version: number): void {
  const earlier = new Database(':memory:')
  migrate(earlier, loadMigrations().slice(0, version - 1))
  const kept = new Set((earlier.prepare('SELECT type, name FROM sqlite_master').all() as { type: string; name: string }[]).map((row) => `${row.type}:${row.name}`))
  earlier.close()
  const later = (db.prepare("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").all() as { type: string; name: string }[])
    .filter((row) => !kept.has(`${row.type}:${row.name}`))
    .sort((a, b) => ORDER.indexOf(a.type) - ORDER.indexOf(b.type))
  for (const row of later) db.exec(`DROP ${row.type.toUpperCase()} IF EXISTS "${row.name}"`)
  db.prepare('DELETE FROM schema_migrations WHERE version >= ?').run(version)
  db.pragma(`user_version = ${version - 1}`)
}
