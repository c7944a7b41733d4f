import { basename } from 'node:path'
import { readForeignDb, ReadTimeLimit, type TableResult } from '../foreign-db/read-foreign-db'
import { isRecord } from '../plain-data'
import { byId, sessionOf, text, type OpenCodeMessage, type OpenCodeSession, type OpenCodeStore } from './model'
import type { SessionFilter } from './storage-folder'

/**
 * The tables of `opencode.db` read (OpenCode's drizzle schema: `project`, `session`, `message`,
 * `part`; `message.data` and `part.data` are the JSON objects of the storage folder without their
 * ids, which are columns). Only plain reads of these columns, through foreign-db: a temporary
 * copy (with its WAL), in a process of its own, with a time limit.
 */
const TABLES = {
  project: { columns: ['id', 'worktree'], required: ['id', 'worktree'] },
  session: { columns: ['id', 'project_id', 'parent_id', 'directory', 'title', 'version', 'revert', 'time_created'], required: ['id', 'project_id'], orderBy: ['id'] },
  message: { columns: ['id', 'session_id', 'data'], required: ['id', 'session_id', 'data'], orderBy: ['session_id', 'id'] },
  part: { columns: ['id', 'message_id', 'data'], required: ['id', 'message_id', 'data'], orderBy: ['message_id', 'id'] }
} as const

/**
 * `opencode.db` read whole, read-only, into the sessions the filter accepts. Throws ReadTimeLimit
 * (read again at the next import); any other failure is one problem and no session.
 */
export async function readOpenCodeDb(path: string, wanted: SessionFilter): Promise<OpenCodeStore> {
  const read = await readForeignDb(path, TABLES)
  if (!read.ok) {
    if (read.kind === 'time-limit') throw new ReadTimeLimit(read.problem)
    return { worktrees: new Map(), sessions: [], problems: [read.problem] }
  }
  const problems: string[] = []
  // `opencode.db`, or the Kilo CLI's `kilo.db`: problems name the file they are in.
  const fileName = basename(path)
  const rowsOf = (name: keyof typeof TABLES): Record<string, unknown>[] => {
    const table: TableResult | undefined = read.tables[name]
    if (table?.state === 'read') return table.rows
    problems.push(`${path}: table ${name} ${describe(table)}; ${name === 'session' ? 'no session' : `no ${name}`} was read`)
    return []
  }
  const worktrees = new Map<string, string>()
  for (const row of rowsOf('project')) if (typeof row.id === 'string' && typeof row.worktree === 'string') worktrees.set(row.id, row.worktree)
  const sessions = new Map<string, OpenCodeSession>()
  for (const row of rowsOf('session')) {
    if (typeof row.id !== 'string') continue
    const info = { projectID: row.project_id, parentID: row.parent_id, directory: row.directory, title: row.title, version: row.version, time: { created: row.time_created }, revert: parsed(row.revert) }
    const session = sessionOf(info, { id: row.id, projectId: text(row.project_id) ?? '', label: `${fileName} session ${row.id}` })
    if (wanted(session, worktrees.get(session.projectId) ?? null)) sessions.set(session.id, session)
  }
  const messages = new Map<string, OpenCodeMessage>()
  for (const row of rowsOf('message')) {
    const session = typeof row.session_id === 'string' ? sessions.get(row.session_id) : undefined
    if (!session || typeof row.id !== 'string') continue
    const info = parsed(row.data)
    if (!info) {
      problems.push(`${fileName} message ${row.id} (session ${session.id}): its data is not a JSON object; skipped`)
      continue
    }
    const message: OpenCodeMessage = { id: row.id, info, parts: [] }
    messages.set(row.id, message)
    session.messages.push(message)
  }
  for (const row of rowsOf('part')) {
    const message = typeof row.message_id === 'string' ? messages.get(row.message_id) : undefined
    if (!message || typeof row.id !== 'string') continue
    const data = parsed(row.data)
    if (data) message.parts.push({ id: row.id, data })
    else problems.push(`${fileName} part ${row.id} (message ${message.id}): its data is not a JSON object; skipped`)
  }
  for (const session of sessions.values()) {
    session.messages.sort(byId)
    for (const message of session.messages) message.parts.sort(byId)
  }
  return { worktrees, sessions: [...sessions.values()], problems }
}

/**
 * The ids of the sessions in a database (the storage folder beside it leaves those out). A
 * database that cannot be read has none; one too slow to read this time throws ReadTimeLimit.
 */
export async function databaseSessionIds(path: string): Promise<Set<string>> {
  const read = await readForeignDb(path, { session: { columns: ['id'], required: ['id'] } })
  if (!read.ok) {
    if (read.kind === 'time-limit') throw new ReadTimeLimit(read.problem)
    return new Set()
  }
  const table = read.tables.session
  return new Set(table?.state === 'read' ? table.rows.flatMap((row) => (typeof row.id === 'string' ? [row.id] : [])) : [])
}

function parsed(value: unknown): Record<string, unknown> | null {
  if (isRecord(value)) return value
  const source = Buffer.isBuffer(value) ? value.toString('utf8') : value
  if (typeof source !== 'string') return null
  try {
    const decoded = JSON.parse(source) as unknown
    return isRecord(decoded) ? decoded : null
  } catch {
    return null
  }
}

function describe(table: TableResult | undefined): string {
  if (!table || table.state === 'absent') return 'is missing'
  if (table.state === 'lacks') return `lacks ${table.missing.join(', ')}`
  if (table.state === 'unreadable') return `cannot be read (${table.message})`
  return 'was read'
}
