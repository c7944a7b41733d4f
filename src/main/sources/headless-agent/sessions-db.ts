import type Database from 'better-sqlite3'
import { readDatabaseCopy } from '../database-copy'

/** A row of the agent's `sessions` table (seed ch. 6 › Schema), with SQL NULLs read as the Go zero value. */
export interface AgentSessionRow {
  id: string
  workflowName: string
  /** JSON-encoded inputs, state and outputs, as stored (decoded where they are shown). */
  inputs: string
  state: string
  outputs: string
  /** `running`, `completed`, `failed` (seed); the agent's Go constant says `complete`. */
  status: string
  result: string
  error: string
  /** DATETIME as stored: text in one of several layouts, or an INTEGER (see agent-time.ts). */
  createdAt: unknown
  updatedAt: unknown
}

/** A row of the agent's `events` table. Absent values are `''`, `0` or the string `null` (Go zero values). */
export interface AgentEvent {
  id: number
  sessionId: string
  type: string
  goal: string
  content: string
  tool: string
  /** JSON-encoded arguments on `tool_call`; the text `null` elsewhere. */
  args: string
  error: string
  durationMs: number
  timestamp: unknown
}

export interface AgentSession {
  row: AgentSessionRow
  /** Its events in id order (ids grow across saves; their order is the order things happened). */
  events: AgentEvent[]
}

export interface SessionsDb {
  sessions: AgentSession[]
  /** What could not be read, for the import report; reading never throws. */
  problems: string[]
}

/** Columns read, with the value a missing one reads as (an older or newer agent's schema). */
const SESSION_COLUMNS: Record<string, string> = {
  id: "''",
  workflow_name: "''",
  inputs: "''",
  state: "''",
  outputs: "''",
  status: "''",
  result: "''",
  error: "''",
  created_at: 'NULL',
  updated_at: 'NULL'
}
const EVENT_COLUMNS: Record<string, string> = {
  id: '0',
  session_id: "''",
  type: "''",
  goal: "''",
  content: "''",
  tool: "''",
  args: "'null'",
  error: "''",
  duration_ms: '0',
  timestamp: 'NULL'
}
/** Without these a row means nothing: the table is not the agent's. */
const REQUIRED_SESSION_COLUMNS = ['id']
const REQUIRED_EVENT_COLUMNS = ['id', 'session_id', 'type']

/**
 * Read the agent's `sessions.db` without touching it: the file and its `-wal` (which holds what
 * a running agent wrote since the last checkpoint) are copied to a temporary folder and the copy
 * opened, so no `-shm` or journal ever appears beside the original — as the LangGraph reader does.
 * Extra columns of a newer agent are ignored; missing ones are reported and read as empty.
 */
export function readSessionsDb(path: string): SessionsDb {
  try {
    return readDatabaseCopy(path, readOpen)
  } catch (error) {
    const message = (error as Error).message
    const reason = /not a database|file is encrypted/i.test(message) ? 'not a SQLite database' : message
    return { sessions: [], problems: [`sessions.db cannot be read: ${reason}`] }
  }
}

function readOpen(db: Database.Database): SessionsDb {
  const problems: string[] = []
  const sessionColumns = columnsOf(db, 'sessions')
  if (sessionColumns.size === 0) return { sessions: [], problems: ['sessions.db has no sessions table: not a headless agent session database'] }
  const missingRequired = REQUIRED_SESSION_COLUMNS.filter((column) => !sessionColumns.has(column))
  if (missingRequired.length > 0) return { sessions: [], problems: [`the sessions table lacks ${missingRequired.join(', ')}: an unknown schema`] }
  const missingSession = Object.keys(SESSION_COLUMNS).filter((column) => !sessionColumns.has(column))
  if (missingSession.length > 0) problems.push(`the sessions table lacks ${missingSession.join(', ')} (read as empty)`)
  const rows = db.prepare(`SELECT ${selectList(SESSION_COLUMNS, sessionColumns)} FROM sessions ORDER BY rowid`).all() as Record<string, unknown>[]
  const sessions = new Map<string, AgentSession>()
  for (const raw of rows) {
    const row = sessionRow(raw)
    if (!row.id) {
      problems.push('a sessions row without an id was left out')
      continue
    }
    if (sessions.has(row.id)) {
      problems.push(`session ${row.id} appears twice in the sessions table: the first row was kept`)
      continue
    }
    sessions.set(row.id, { row, events: [] })
  }
  const events = readEvents(db, problems)
  const orphans = new Map<string, AgentEvent[]>()
  for (const event of events) {
    const session = sessions.get(event.sessionId)
    if (session) session.events.push(event)
    else {
      const list = orphans.get(event.sessionId) ?? []
      list.push(event)
      orphans.set(event.sessionId, list)
    }
  }
  // Events of a session with no row are not made into a session: its workflow, status and times are unknown.
  for (const [sessionId, list] of orphans) {
    // Read in id order: the first and last are the lowest and highest.
    problems.push(`${list.length} events (ids ${list[0]?.id}–${list.at(-1)?.id}) belong to session ${sessionId || '(empty id)'}, which has no row in the sessions table: not imported`)
  }
  return { sessions: [...sessions.values()], problems }
}

function readEvents(db: Database.Database, problems: string[]): AgentEvent[] {
  const columns = columnsOf(db, 'events')
  if (columns.size === 0) {
    problems.push('sessions.db has no events table: sessions are imported without their events')
    return []
  }
  const missingRequired = REQUIRED_EVENT_COLUMNS.filter((column) => !columns.has(column))
  if (missingRequired.length > 0) {
    problems.push(`the events table lacks ${missingRequired.join(', ')}: its events are not imported`)
    return []
  }
  const missing = Object.keys(EVENT_COLUMNS).filter((column) => !columns.has(column))
  if (missing.length > 0) problems.push(`the events table lacks ${missing.join(', ')} (read as empty)`)
  const rows = db.prepare(`SELECT ${selectList(EVENT_COLUMNS, columns)} FROM events ORDER BY id`).all() as Record<string, unknown>[]
  return rows.map((raw) => ({
    id: integer(raw.id),
    sessionId: text(raw.session_id),
    type: text(raw.type),
    goal: text(raw.goal),
    content: text(raw.content),
    tool: text(raw.tool),
    args: raw.args === null || raw.args === undefined ? 'null' : text(raw.args),
    error: text(raw.error),
    durationMs: integer(raw.duration_ms),
    timestamp: raw.timestamp ?? null
  }))
}

function sessionRow(raw: Record<string, unknown>): AgentSessionRow {
  return {
    id: text(raw.id),
    workflowName: text(raw.workflow_name),
    inputs: text(raw.inputs),
    state: text(raw.state),
    outputs: text(raw.outputs),
    status: text(raw.status),
    result: text(raw.result),
    error: text(raw.error),
    createdAt: raw.created_at ?? null,
    updatedAt: raw.updated_at ?? null
  }
}

function columnsOf(db: Database.Database, table: string): Set<string> {
  const rows = db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as { name: string }[]
  return new Set(rows.map((row) => row.name))
}

/** Present columns by name, missing ones as their empty value, so every row has every field. */
function selectList(wanted: Record<string, string>, present: Set<string>): string {
  return Object.entries(wanted)
    .map(([column, empty]) => (present.has(column) ? `"${column}"` : `${empty} AS "${column}"`))
    .join(', ')
}

/** TEXT as stored; SQL NULL (never written by the agent, but possible) as ''. */
function text(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === null || value === undefined) return ''
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8')
  return typeof value === 'number' || typeof value === 'bigint' ? String(value) : ''
}

function integer(value: unknown): number {
  const n = typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? value : Number(value)
  return Number.isFinite(n) ? Math.trunc(n) : 0
}
