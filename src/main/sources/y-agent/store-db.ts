import { readForeignDb, ReadTimeLimit, type TableRead, type TableResult } from '../foreign-db/read-foreign-db'
import { isRecord } from '../plain-data'

/** The database file in a y-agent data folder (y-agent's default `db_path` is `data/y-agent.db`). */
export const DB_NAME = 'y-agent.db'

/**
 * The newest `_sqlx_migrations` version this importer was written against: 1 initial, 2 schedules,
 * 3 workflows, 4 chat checkpoints, 5 file journal, 6 diagnostics. A newer store is still read
 * (the tables and columns known here), and the newer version reported.
 */
export const KNOWN_SCHEMA_VERSION = 6

/**
 * The migrations of that layout, by version, as sqlx records them (`NNN_description.sql`, the
 * underscores as spaces). y-agent's builds did not all number their migrations alike: the store
 * its repository committed on 2026-03-12 has 8, where 4 is "tools and agents" and the chat
 * checkpoints do not exist. A version means the table it creates only when its description does.
 */
const KNOWN_MIGRATIONS: ReadonlyMap<number, string> = new Map([
  [1, 'initial'],
  [2, 'add schedules'],
  [3, 'add workflows'],
  [4, 'add chat checkpoints'],
  [5, 'add file journal'],
  [6, 'add diagnostics']
])

const isKnownMigration = (migration: { version: number; description: string }) => KNOWN_MIGRATIONS.get(migration.version) === migration.description.trim().toLowerCase()

/** The tables read, with the migration that creates each (to say what is missing, and why it matters), and the columns read. */
const TABLES = {
  session_metadata: {
    migration: 1,
    without: 'no session can be imported',
    columns: ['id', 'parent_id', 'depth', 'session_type', 'state', 'agent_id', 'title', 'channel', 'message_count', 'transcript_path', 'compaction_count', 'created_at']
  },
  chat_checkpoints: {
    migration: 4,
    without: 'no chat checkpoint was read (turns still follow the prompts; an undone turn is found from its rolled-back journal scope)',
    columns: ['checkpoint_id', 'session_id', 'turn_number', 'message_count_before', 'journal_scope_id', 'invalidated', 'created_at']
  },
  file_journal_scopes: { migration: 5, without: 'journal entries are not linked to their turns', columns: ['scope_id', 'scope_type', 'status', 'trace_id'] },
  file_journal_entries: {
    migration: 5,
    without: 'no file change was read',
    // The store of 2026-03 keys its entries by `id` and has no `operation` (storage_tier, file_existed,
    // status instead): read as this layout, each row would become an entry of no id and no operation.
    required: ['entry_id', 'operation'],
    columns: ['entry_id', 'scope_id', 'file_path', 'operation', 'from_path', 'original_content', 'original_hash', 'timestamp', 'storage_strategy', 'blob_path', 'git_ref', 'rolled_back', 'observation_id']
  },
  file_journal_rollbacks: {
    migration: 5,
    without: 'no rollback was read',
    columns: ['rollback_id', 'scope_id', 'session_id', 'checkpoint_id', 'started_at', 'completed_at', 'restored', 'skipped', 'conflicts']
  },
  diag_traces: { migration: 6, without: 'no token usage, cost or undone-turn content was read', columns: ['id', 'session_id', 'name', 'status', 'user_input', 'metadata', 'started_at', 'completed_at'] },
  diag_observations: {
    migration: 6,
    without: 'no token usage or tool status was read',
    columns: [
      'id', 'trace_id', 'parent_id', 'session_id', 'obs_type', 'name', 'status', 'model', 'input_tokens', 'output_tokens', 'cost_usd', 'input', 'output', 'metadata', 'sequence', 'error_message', 'started_at', 'completed_at'
    ]
  }
} as const

const MIGRATIONS: TableRead = { columns: ['version', 'description', 'success'], orderBy: ['version'] }

export type SessionType = 'main' | 'child' | 'branch' | 'ephemeral' | 'sub_agent' | 'canonical'

export interface SessionRow {
  id: string
  parentId: string | null
  depth: number
  /** As stored; an unknown value is reported and imported as `main`. */
  type: string
  state: string
  agentId: string | null
  title: string | null
  channel: string | null
  /** Lines in the context transcript. */
  messageCount: number
  /** `transcripts/<id>.jsonl`, relative to the data folder; the display file is `<id>.display.jsonl`. */
  transcriptPath: string
  compactionCount: number
  createdAt: number | undefined
}

export interface CheckpointRow {
  id: string
  sessionId: string
  turn: number
  /** Display transcript lines before the turn's prompt. */
  messageCountBefore: number
  scopeId: string | null
  invalidated: boolean
  createdAt: number | undefined
}

export interface ScopeRow {
  id: string
  type: string
  status: string
  traceId: string | null
}

export interface EntryRow {
  id: string
  scopeId: string
  /** Absolute; for a move, the new path. */
  filePath: string
  operation: string
  fromPath: string | null
  /** The inline tier's snapshot of the file before the tool ran. */
  originalContent: Buffer | null
  originalHash: string | null
  timestamp: number | undefined
  /** `inline`, `blob_file` or `git_ref`: where the original content is kept. */
  strategy: string
  blobPath: string | null
  gitRef: string | null
  rolledBack: boolean
  observationId: string | null
}

export interface Conflict {
  filePath: string
  reason: string
  expectedHash: string | null
  currentHash: string | null
}

export interface RollbackRow {
  id: string
  scopeId: string
  sessionId: string | null
  checkpointId: string | null
  startedAt: number | undefined
  completedAt: number | undefined
  restored: number
  skipped: number
  conflicts: Conflict[]
}

export interface TraceRow {
  id: string
  sessionId: string
  /** The agent's name (`default`, `code-reviewer`, `compaction-summarizer`). */
  name: string
  status: string
  userInput: string | null
  /** The final answer, from the trace metadata. */
  output: string | null
  startedAt: number | undefined
  completedAt: number | undefined
}

export interface ObservationRow {
  id: string
  traceId: string
  parentId: string | null
  sessionId: string | null
  /** `generation`, `tool_call` or `sub_agent`. */
  type: string
  name: string
  status: string
  model: string | null
  inputTokens: number
  outputTokens: number
  costUsd: number
  input: unknown
  output: unknown
  metadata: Record<string, unknown>
  sequence: number
  error: string | null
  startedAt: number | undefined
  completedAt: number | undefined
}

export interface StoreDb {
  /** Applied migrations, oldest first (empty when the store has no `_sqlx_migrations`). */
  migrations: { version: number; description: string }[]
  sessions: SessionRow[]
  checkpoints: CheckpointRow[]
  scopes: ScopeRow[]
  entries: EntryRow[]
  rollbacks: RollbackRow[]
  traces: TraceRow[]
  observations: ObservationRow[]
  /** What could not be read (newer schema, missing tables): for the import report. */
  problems: string[]
}

/**
 * Read a y-agent database without touching it and without letting it stall Retrace (see
 * readForeignDb: a copy, with its `-wal`, read in a process of its own after its schema is
 * checked). Throws, with a message naming the file, when the database cannot be read at all
 * (ReadTimeLimit when the read was stopped at its time limit).
 */
export async function readStoreDb(dbPath: string): Promise<StoreDb> {
  const reads: Record<string, TableRead> = { _sqlx_migrations: MIGRATIONS }
  // Every column by name: a newer schema's extra columns are ignored, a missing one reads as
  // empty. Rows come in insertion order; callers sort by time.
  for (const [table, spec] of Object.entries(TABLES)) reads[table] = { columns: spec.columns, ...('required' in spec ? { required: spec.required } : {}) }
  const read = await readForeignDb(dbPath, reads)
  if (!read.ok) throw read.kind === 'time-limit' ? new ReadTimeLimit(read.problem) : new Error(read.problem)
  return storeOf(read.tables)
}

type Row = Record<string, unknown>

function storeOf(tables: Record<string, TableResult>): StoreDb {
  const problems: string[] = []
  const migrationTable = tables._sqlx_migrations
  const migrations = migrationTable?.state === 'read' ? readMigrations(migrationTable.rows, problems) : []
  if (migrationTable?.state === 'absent') problems.push('the database has no _sqlx_migrations table: its schema version is unknown; the tables found are read as version 6')
  else if (migrationTable?.state === 'unreadable') problems.push(`table _sqlx_migrations cannot be read (${migrationTable.message}): its schema version is unknown; the tables found are read as version 6`)
  const applied = new Set(migrations.filter(isKnownMigration).map((migration) => migration.version))
  const rows = (table: keyof typeof TABLES): Row[] => {
    const result = tables[table]
    const { migration, without } = TABLES[table]
    if (result?.state === 'read') return result.rows
    if (result?.state === 'unreadable') problems.push(`table ${table} cannot be read (${result.message}): ${without}`)
    else if (result?.state === 'lacks') problems.push(`table ${table} has another layout (it has no ${result.missing.join(', ')}): ${without}`)
    else {
      const recorded = applied.has(migration) ? `, although migration ${migration} is recorded as applied` : ''
      problems.push(`table ${table} is missing${recorded}: ${without}`)
    }
    return []
  }
  return {
    migrations,
    sessions: rows('session_metadata').map(sessionRow),
    checkpoints: rows('chat_checkpoints').map(checkpointRow),
    scopes: rows('file_journal_scopes').map(scopeRow),
    entries: rows('file_journal_entries').map(entryRow),
    rollbacks: rows('file_journal_rollbacks').map(rollbackRow),
    traces: rows('diag_traces').map(traceRow),
    observations: rows('diag_observations').map(observationRow),
    problems
  }
}

function readMigrations(rows: Row[], problems: string[]): StoreDb['migrations'] {
  const migrations = rows.map((row) => ({ version: num(row.version), description: str(row.description) ?? '', success: row.success !== 0 }))
  for (const migration of migrations) {
    if (!migration.success) problems.push(`migration ${migration.version} (${migration.description}) is recorded as failed: its tables may be incomplete`)
  }
  const foreign = migrations.filter((migration) => migration.version <= KNOWN_SCHEMA_VERSION && !isKnownMigration(migration))
  if (foreign.length > 0) {
    const names = migrations.filter((migration) => !isKnownMigration(migration)).map((migration) => `${migration.version} (${migration.description})`).join(', ')
    const known = [...KNOWN_MIGRATIONS].map(([version, description]) => `${version} ${description}`).join(', ')
    problems.push(`the store's migrations are another y-agent layout: ${names}, not ${known}; its tables are read by name, with the columns this importer knows`)
    return migrations.map(({ version, description }) => ({ version, description }))
  }
  const newer = migrations.filter((migration) => migration.version > KNOWN_SCHEMA_VERSION)
  if (newer.length > 0) {
    const names = newer.map((migration) => `${migration.version} (${migration.description})`).join(', ')
    problems.push(
      `schema version ${newer.at(-1)?.version} is newer than the newest this importer knows (${KNOWN_SCHEMA_VERSION}): migration ${names} is unknown; the tables and columns of versions 1-${KNOWN_SCHEMA_VERSION} are read, anything newer is ignored`
    )
  }
  return migrations.map(({ version, description }) => ({ version, description }))
}

function sessionRow(row: Row): SessionRow {
  return {
    id: str(row.id) ?? '',
    parentId: str(row.parent_id),
    depth: num(row.depth),
    type: str(row.session_type) ?? '',
    state: str(row.state) ?? '',
    agentId: str(row.agent_id),
    title: str(row.title),
    channel: str(row.channel),
    messageCount: num(row.message_count),
    transcriptPath: str(row.transcript_path) ?? '',
    compactionCount: num(row.compaction_count),
    createdAt: time(row.created_at)
  }
}

function checkpointRow(row: Row): CheckpointRow {
  return {
    id: str(row.checkpoint_id) ?? '',
    sessionId: str(row.session_id) ?? '',
    turn: num(row.turn_number),
    messageCountBefore: num(row.message_count_before),
    scopeId: str(row.journal_scope_id),
    invalidated: num(row.invalidated) !== 0,
    createdAt: time(row.created_at)
  }
}

function scopeRow(row: Row): ScopeRow {
  return { id: str(row.scope_id) ?? '', type: str(row.scope_type) ?? '', status: str(row.status) ?? '', traceId: str(row.trace_id) }
}

function entryRow(row: Row): EntryRow {
  const content = row.original_content
  return {
    id: str(row.entry_id) ?? '',
    scopeId: str(row.scope_id) ?? '',
    filePath: str(row.file_path) ?? '',
    operation: str(row.operation) ?? '',
    fromPath: str(row.from_path),
    originalContent: content instanceof Uint8Array ? Buffer.from(content) : typeof content === 'string' ? Buffer.from(content, 'utf8') : null,
    originalHash: str(row.original_hash),
    timestamp: time(row.timestamp),
    strategy: str(row.storage_strategy) ?? '',
    blobPath: str(row.blob_path),
    gitRef: str(row.git_ref),
    rolledBack: num(row.rolled_back) !== 0,
    observationId: str(row.observation_id)
  }
}

function rollbackRow(row: Row): RollbackRow {
  const conflicts = json(row.conflicts)
  return {
    id: str(row.rollback_id) ?? '',
    scopeId: str(row.scope_id) ?? '',
    sessionId: str(row.session_id),
    checkpointId: str(row.checkpoint_id),
    startedAt: time(row.started_at),
    completedAt: time(row.completed_at),
    restored: num(row.restored),
    skipped: num(row.skipped),
    conflicts: Array.isArray(conflicts)
      ? conflicts.filter(isRecord).map((conflict) => ({
          filePath: str(conflict.file_path) ?? '',
          reason: str(conflict.reason) ?? '',
          expectedHash: str(conflict.expected_hash),
          currentHash: str(conflict.current_hash)
        }))
      : []
  }
}

function traceRow(row: Row): TraceRow {
  const metadata = json(row.metadata)
  return {
    id: str(row.id) ?? '',
    sessionId: str(row.session_id) ?? '',
    name: str(row.name) ?? '',
    status: str(row.status) ?? '',
    userInput: str(row.user_input),
    output: isRecord(metadata) ? str(metadata.output) : null,
    startedAt: time(row.started_at),
    completedAt: time(row.completed_at)
  }
}

function observationRow(row: Row): ObservationRow {
  const metadata = json(row.metadata)
  return {
    id: str(row.id) ?? '',
    traceId: str(row.trace_id) ?? '',
    parentId: str(row.parent_id),
    sessionId: str(row.session_id),
    type: str(row.obs_type) ?? '',
    name: str(row.name) ?? '',
    status: str(row.status) ?? '',
    model: str(row.model),
    inputTokens: num(row.input_tokens),
    outputTokens: num(row.output_tokens),
    costUsd: Math.max(0, Number(row.cost_usd) || 0),
    input: json(row.input),
    output: json(row.output),
    metadata: isRecord(metadata) ? metadata : {},
    sequence: num(row.sequence),
    error: str(row.error_message),
    startedAt: time(row.started_at),
    completedAt: time(row.completed_at)
  }
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}

/** A non-negative integer column (counts, versions); anything else reads as 0. */
function num(value: unknown): number {
  const n = typeof value === 'bigint' ? Number(value) : Number(value)
  return Number.isFinite(n) && n >= 0 ? Math.trunc(n) : 0
}

/** RFC 3339 text (`Z` or `+00:00`, with or without milliseconds) to epoch ms. */
export function time(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined
  const ms = Date.parse(value)
  return Number.isFinite(ms) ? ms : undefined
}

function json(value: unknown): unknown {
  if (typeof value !== 'string') return null
  try {
    return JSON.parse(value) as unknown
  } catch {
    return value
  }
}
