import { readForeignDb, ReadTimeLimit, type TableResult } from '../foreign-db/read-foreign-db'

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
  /** What could not be read, for the import report. */
  problems: string[]
}

/** Columns read; a missing one (an older or newer agent's schema) reads as its Go zero value (see sessionRow, eventsOf). */
const SESSION_COLUMNS = ['id', 'workflow_name', 'inputs', 'state', 'outputs', 'status', 'result', 'error', 'created_at', 'updated_at']
const EVENT_COLUMNS = ['id', 'session_id', 'type', 'goal', 'content', 'tool', 'args', 'error', 'duration_ms', 'timestamp']
/** Without these a row means nothing: the table is not the agent's. */
const REQUIRED_SESSION_COLUMNS = ['id']
const REQUIRED_EVENT_COLUMNS = ['id', 'session_id', 'type']

/**
 * Read the agent's `sessions.db` without touching it and without letting it stall Retrace (see
 * readForeignDb: a copy, with its `-wal`, read in a process of its own after its schema is
 * checked), as the LangGraph reader does. Extra columns of a newer agent are ignored; missing
 * ones are reported and read as empty. Only a read stopped at its time limit throws (ReadTimeLimit).
 */
export async function readSessionsDb(path: string): Promise<SessionsDb> {
  const read = await readForeignDb(path, {
    sessions: { columns: SESSION_COLUMNS, required: REQUIRED_SESSION_COLUMNS, orderBy: ['rowid'] },
    events: { columns: EVENT_COLUMNS, required: REQUIRED_EVENT_COLUMNS, orderBy: ['id'] }
  })
  if (!read.ok) {
    if (read.kind === 'time-limit') throw new ReadTimeLimit(read.problem)
    if (read.kind === 'refused') return { sessions: [], problems: [read.problem] }
    const reason = /not a database|file is encrypted/i.test(read.reason) ? 'not a SQLite database' : read.reason
    return { sessions: [], problems: [`sessions.db cannot be read: ${reason}`] }
  }
  const { sessions: sessionTable, events: eventTable } = read.tables
  if (sessionTable?.state !== 'read') return { sessions: [], problems: [sessionTableProblem(sessionTable)] }
  const problems: string[] = []
  const missingSession = SESSION_COLUMNS.filter((column) => !sessionTable.columns.includes(column))
  if (missingSession.length > 0) problems.push(`the sessions table lacks ${missingSession.join(', ')} (read as empty)`)
  const sessions = new Map<string, AgentSession>()
  for (const raw of sessionTable.rows) {
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
  const events = eventsOf(eventTable, problems)
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

function sessionTableProblem(table: Exclude<TableResult, { state: 'read' }> | undefined): string {
  if (table === undefined || table.state === 'absent') return 'sessions.db has no sessions table: not a headless agent session database'
  if (table.state === 'lacks') return `the sessions table lacks ${table.missing.join(', ')}: an unknown schema`
  return `sessions.db cannot be read: ${table.message}`
}

function eventsOf(table: TableResult | undefined, problems: string[]): AgentEvent[] {
  if (table === undefined || table.state === 'absent') {
    problems.push('sessions.db has no events table: sessions are imported without their events')
    return []
  }
  if (table.state === 'lacks') {
    problems.push(`the events table lacks ${table.missing.join(', ')}: its events are not imported`)
    return []
  }
  if (table.state === 'unreadable') {
    problems.push(`the events table cannot be read (${table.message}): its events are not imported`)
    return []
  }
  const missing = EVENT_COLUMNS.filter((column) => !table.columns.includes(column))
  if (missing.length > 0) problems.push(`the events table lacks ${missing.join(', ')} (read as empty)`)
  return table.rows.map((raw) => ({
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
