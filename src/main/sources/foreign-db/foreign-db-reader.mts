/**
 * Reads one agent's SQLite database in a process of its own, started by read-foreign-db.ts for
 * each read: a database found in a folder the user opens (a cloned repository) may be hostile,
 * and SQLite work stuck in native code cannot be stopped inside a process (a worker thread's
 * terminate() waits for it, and so does the process's exit). A process can always be killed.
 *
 * Open, check, read: a file without a `-wal` is opened where it is, read-only and immutable
 * (SQLite then takes no lock and writes nothing, not even a `-shm`); one with a `-wal` (an agent
 * running) is copied with it into the folder the caller gave, only the bytes SQLite reads
 * (sqlite-file-copy.mts), since SQLite writes `-shm` and WAL replays beside the file it opens
 * and nothing may appear beside the agent's own. The schema is checked, and only then are the
 * wanted columns of plain tables read.
 *
 * Self-contained on purpose, like the scan and blob workers: under vitest Node runs this file
 * directly with type stripping, and the build makes it its own entry. So: only node:* builtins,
 * npm packages, `import type` and the leaf beside it; only erasable TypeScript.
 */
import { statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import Database from 'better-sqlite3'
import type { ReaderReply, ReaderRequest, TableRead, TableResult } from './protocol'
import { copySparse, databaseBytes, readHeader } from './sqlite-file-copy.mts'

// better-sqlite3 reads this when its native module loads (at the first Database): `file:` URIs
// are understood, for `immutable=1`. Only URIs this file builds are opened.
process.env.SQLITE_USE_URI = '1'

/** SQLite's own memory for this read (page cache, sorting, one row's values). */
const SQLITE_HEAP_LIMIT_BYTES = 1024 * 1024 * 1024

class Refused extends Error {}

process.once('message', (request: ReaderRequest) => {
  startDeadline(request.deadlineMs)
  const reply = readRequest(request)
  if (process.send) process.send(reply, () => process.exit(0))
  else process.exit(0)
})

/**
 * The caller kills this process at its time limit; if the caller is gone first (killed itself),
 * nobody would, and a read stuck in SQLite would spin forever. A thread of its own still runs
 * while the main thread is stuck in native code, and a signal ends the whole process.
 */
function startDeadline(ms: number): void {
  const watchdog = new Worker(`setTimeout(() => process.kill(process.pid, 'SIGKILL'), ${Math.max(0, Math.trunc(ms))})`, { eval: true })
  watchdog.unref()
}

function readRequest(request: ReaderRequest): ReaderReply {
  let db: Database.Database
  try {
    db = openDatabase(request.path, request.copyDir)
  } catch (error) {
    return error instanceof Refused ? { ok: false, kind: 'refused', reason: error.message } : { ok: false, kind: 'error', reason: (error as Error).message }
  }
  try {
    const schema = schemaOf(db)
    const checked = Object.entries(request.tables).map(([name, read]) => [name, read, checkTable(db, schema, name, read)] as const)
    const tables: Record<string, TableResult> = {}
    for (const [name, read, columns] of checked) tables[name] = columns.state === 'plain' ? readTable(db, name, read, columns.columns) : columns
    return { ok: true, tables }
  } catch (error) {
    return error instanceof Refused ? { ok: false, kind: 'refused', reason: error.message } : { ok: false, kind: 'error', reason: (error as Error).message }
  } finally {
    db.close()
  }
}

/**
 * Open the database for reading. Without a `-wal` (or an empty one): in place, read-only and
 * immutable, nothing copied. With one, which holds a running agent's newest transactions: the
 * file (as far as its header says SQLite reads) and the `-wal` are copied, holes left holes, and
 * the copy opened writable, so SQLite replays the WAL, but with every query refused that would
 * write. Only regular files are read: a pipe or a device named like a database would never end.
 */
function openDatabase(path: string, copyDir: string): Database.Database {
  const wal = `${path}-wal`
  const stats = statSync(path)
  if (!stats.isFile()) throw new Refused(`${path} is not a regular file`)
  const walStats = statOrNull(wal)
  if (walStats && !walStats.isFile()) throw new Refused(`${wal} is not a regular file (a pipe or a device: reading it might never end)`)
  let db: Database.Database
  if (!walStats || walStats.size === 0) {
    const uri = pathToFileURL(path)
    uri.searchParams.set('immutable', '1')
    db = new Database(uri.href, { readonly: true, fileMustExist: true })
  } else {
    const local = join(copyDir, basename(path))
    copySparse(path, local, databaseBytes(readHeader(path), stats.size))
    copySparse(wal, `${local}-wal`)
    db = new Database(local, { fileMustExist: true })
  }
  // better-sqlite3 already turns SQLITE_DBCONFIG_DEFENSIVE on and never loads extensions unless
  // asked. Functions that are not innocuous may not run from the schema; nothing may be written;
  // a cell that does not fit its page is corruption, reported instead of followed.
  db.pragma('trusted_schema = OFF')
  db.pragma('query_only = ON')
  db.pragma('cell_size_check = ON')
  db.pragma(`hard_heap_limit = ${SQLITE_HEAP_LIMIT_BYTES}`)
  return db
}

interface SchemaEntry {
  type: string
  name: string
  tbl_name: string
  sql: string | null
}

/**
 * The schema as stored, each entry's type checked against its SQL: SQLite builds an object from
 * its SQL text, not from the `type` column, and a file edited by hand can make the two differ
 * (a "table" whose SQL creates a view).
 */
function schemaOf(db: Database.Database): SchemaEntry[] {
  const entries = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema').all() as SchemaEntry[]
  for (const entry of entries) {
    if (entry.sql === null) continue
    const created = /^\s*CREATE\s+(?:(?:TEMP|TEMPORARY|UNIQUE)\s+)?(VIRTUAL\s+TABLE|TABLE|INDEX|VIEW|TRIGGER)\b/i.exec(entry.sql)?.[1]?.toUpperCase().replace(/\s+/, ' ')
    const type = created === 'VIRTUAL TABLE' ? 'table' : created?.toLowerCase()
    if (type !== entry.type) throw new Refused(`its schema entry "${entry.name}" says ${entry.type} but its SQL creates ${created ? created.toLowerCase() : 'something unknown'}: the schema was edited by hand`)
  }
  return entries
}

type Checked = { state: 'plain'; columns: Map<string, string> } | Exclude<TableResult, { state: 'read' }>

/**
 * A table is read only when it is a plain table: no view (its query could be anything, even one
 * that never ends), no virtual table (a module runs the query), no trigger on it (none fires on a
 * read, but no agent we read uses one: such a file was not written by the agent), and no wanted
 * column computed on read (a generated column's expression). Anything else refuses the database.
 */
function checkTable(db: Database.Database, schema: SchemaEntry[], name: string, read: TableRead): Checked {
  const same = (other: string) => other.toLowerCase() === name.toLowerCase()
  // SQLite's own view of the object (what it built from the SQL), not the schema's `type` column.
  const kind = (db.prepare('SELECT type FROM pragma_table_list(?) WHERE schema = ?').get(name, 'main') as { type: string } | undefined)?.type
  if (kind === undefined) return { state: 'absent' }
  if (kind === 'view') throw new Refused(`its "${name}" is a view, not a table: a view runs a query of the file's own, which may never end`)
  if (kind === 'virtual') throw new Refused(`its "${name}" is a virtual table, not a table: a module of SQLite's runs its queries`)
  if (kind !== 'table') throw new Refused(`its "${name}" is a ${kind} table, not a plain table`)
  const trigger = schema.find((candidate) => candidate.type === 'trigger' && same(candidate.tbl_name))
  if (trigger) throw new Refused(`its table "${name}" has a trigger ("${trigger.name}"): no agent Retrace reads uses triggers`)
  const info = db.prepare('SELECT name, hidden FROM pragma_table_xinfo(?)').all(name) as { name: string; hidden: number }[]
  const byLower = new Map(info.map((column) => [column.name.toLowerCase(), column]))
  // Every column the query names (read, compared or sorted by), under the name asked for.
  const columns = new Map<string, string>()
  for (const wanted of new Set([...read.columns, ...Object.keys(read.where ?? {}), ...Object.keys(read.prefixes ?? {}), ...(read.orderBy ?? [])])) {
    const column = byLower.get(wanted.toLowerCase())
    if (!column) continue
    if (column.hidden === 2 || column.hidden === 3) throw new Refused(`column "${column.name}" of its table "${name}" is generated (computed by an expression of the file's own)`)
    columns.set(wanted, column.name)
  }
  const missing = (read.required ?? []).filter((column) => !byLower.has(column.toLowerCase()))
  if (missing.length > 0) return { state: 'lacks', missing, columns: info.filter((column) => column.hidden === 0).map((column) => column.name) }
  return { state: 'plain', columns }
}

/** The wanted columns the table has, under the names asked for; conditions and order on columns it has only. */
function readTable(db: Database.Database, name: string, read: TableRead, columns: Map<string, string>): TableResult {
  const column = (wanted: string) => quote(columns.get(wanted) as string)
  const present = read.columns.filter((wanted) => columns.has(wanted))
  const where = Object.entries(read.where ?? {}).filter(([wanted]) => columns.has(wanted))
  const order = (read.orderBy ?? []).flatMap((wanted) => (columns.has(wanted) ? [column(wanted)] : wanted === 'rowid' ? ['rowid'] : []))
  const prefixed = Object.entries(read.prefixes ?? {}).filter(([wanted]) => columns.has(wanted))
  const conditions = [...where.map(([wanted]) => `${column(wanted)} = ?`), ...prefixed.map(([wanted, texts]) => prefixCondition(column(wanted), texts.length))]
  const parameters = [...where.map(([, value]) => value), ...prefixed.flatMap(([, texts]) => texts.flatMap(prefixRange))]
  const sql =
    `SELECT ${read.distinct ? 'DISTINCT ' : ''}${present.length > 0 ? present.map((wanted) => `${column(wanted)} AS ${quote(wanted)}`).join(', ') : 'NULL AS "_"'} FROM ${quote(name)}` +
    (conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '') +
    (order.length > 0 ? ` ORDER BY ${order.join(', ')}` : '')
  try {
    const rows = db.prepare(sql).all(...parameters) as Record<string, unknown>[]
    if (present.length === 0) for (const row of rows) delete row._
    return { state: 'read', columns: present, rows }
  } catch (error) {
    return { state: 'unreadable', message: (error as Error).message }
  }
}

/**
 * Rows whose text starts with one of `count` prefixes: a range on the column (its index answers it,
 * as a LIKE would not) and, to be exact whatever the characters, the prefix compared as well.
 */
function prefixCondition(column: string, count: number): string {
  if (count === 0) return '0'
  const one = `(${column} >= ? AND ${column} < ? AND substr(${column}, 1, length(?)) = ?)`
  return `(${Array.from({ length: count }, () => one).join(' OR ')})`
}

/** The parameters of one prefix's range: from the prefix to the prefix with its last character raised. */
function prefixRange(prefix: string): string[] {
  const last = prefix.charCodeAt(prefix.length - 1)
  // A last character that cannot be raised within its code unit (or none): the bound is the highest character.
  const upper = prefix.length > 0 && last < 0xd7ff ? prefix.slice(0, -1) + String.fromCharCode(last + 1) : `${prefix}\u{10FFFF}`
  return [prefix, upper, prefix, prefix]
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`
}

function statOrNull(path: string) {
  try {
    return statSync(path)
  } catch {
    return null
  }
}
