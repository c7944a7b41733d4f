import { readForeignDb, ReadTimeLimit, type TableResult } from '../foreign-db/read-foreign-db'
import { chatMessage, type ChatMessage } from './messages'
import { decodeMetadata, decodeStored, isPythonObject, UnsupportedSerialization } from './serde'

/** One saved state of a LangGraph thread: after a step of the graph. */
export interface GraphCheckpoint {
  id: string
  /** The checkpoint this one continues; two sharing a parent are a fork (time travel). */
  parentId: string | null
  /** ISO time the saver recorded. */
  ts: string | null
  /** Metadata: `step` (-1 for the input), `source` ("input", "loop", "update", "fork"). */
  step: number | null
  source: string | null
  /** The `messages` channel at this checkpoint (the whole conversation so far); null when it could not be read. */
  messages: ChatMessage[] | null
  /** Whether the state has a `messages` channel at all (a graph may keep its conversation elsewhere, or none). */
  hasMessages: boolean
  /** The state's own channels (`channel_values`, LangGraph's internal ones left out): what a thread without messages holds. */
  channels: string[]
  /** Why this checkpoint could not be read, when it could not. */
  problem: string | null
  /** The errors of the steps that ran from this checkpoint and failed (`__error__` writes), as LangGraph kept them. */
  errors: string[]
}

export interface GraphThread {
  threadId: string
  /** Checkpoints oldest first (LangGraph checkpoint ids sort by time). */
  checkpoints: GraphCheckpoint[]
}

export interface CheckpointDb {
  threads: GraphThread[]
  /** What could not be read (whole database, a checkpoint, unknown extension types): for the import report. */
  problems: string[]
}

/** LangGraph's own channels: `__start__`, `__pregel_tasks`, `branch:to:<node>`, `start:<node>` (older versions). */
const INTERNAL_CHANNEL = /^(__|branch:|start:)/

const REQUIRED_COLUMNS = ['thread_id', 'checkpoint_id', 'parent_checkpoint_id', 'type', 'checkpoint', 'metadata']

/**
 * Read a LangGraph SqliteSaver / AsyncSqliteSaver database without touching it and without letting
 * it stall Retrace (see readForeignDb: a copy, read in a process of its own after its schema is
 * checked). Only the root namespace is read (subgraph checkpoints, `checkpoint_ns` ≠ '', belong to
 * their parent's steps). What could not be read is in `problems`; only a read stopped at its time
 * limit throws (ReadTimeLimit), so that the next import tries again.
 */
export async function readCheckpointDb(path: string): Promise<CheckpointDb> {
  const read = await readForeignDb(path, {
    checkpoints: { columns: REQUIRED_COLUMNS, required: REQUIRED_COLUMNS, where: { checkpoint_ns: '' }, orderBy: ['thread_id', 'checkpoint_id'] },
    // A step that raised leaves an `__error__` write on the checkpoint it ran from (pregel's ERROR channel).
    writes: { columns: ['thread_id', 'checkpoint_id', 'channel', 'type', 'value'], required: ['thread_id', 'checkpoint_id', 'channel', 'value'], where: { checkpoint_ns: '', channel: '__error__' }, orderBy: ['thread_id', 'checkpoint_id', 'task_id', 'idx'] }
  })
  if (!read.ok && read.kind === 'time-limit') throw new ReadTimeLimit(read.problem)
  if (!read.ok) return { threads: [], problems: [read.problem] }
  const table = read.tables.checkpoints
  if (table?.state !== 'read') return { threads: [], problems: [tableProblem(table)] }
  const writes = read.tables.writes
  return checkpointsOf(table.rows as unknown as Row[], writes?.state === 'read' ? (writes.rows as unknown as ErrorRow[]) : [])
}

/** Only the thread ids of a checkpoint database (no checkpoint decoded); none when it is not one, and why. */
export async function readThreadIds(path: string): Promise<{ threadIds: string[]; problems: string[] }> {
  const read = await readForeignDb(path, { checkpoints: { columns: ['thread_id'], required: ['thread_id'], distinct: true, orderBy: ['thread_id'] } })
  if (!read.ok) return { threadIds: [], problems: [read.problem] }
  const table = read.tables.checkpoints
  if (table?.state !== 'read') return { threadIds: [], problems: table?.state === 'absent' ? [] : [tableProblem(table)] }
  return { threadIds: table.rows.map((row) => String(row.thread_id)), problems: [] }
}

function tableProblem(table: Exclude<TableResult, { state: 'read' }> | undefined): string {
  if (table === undefined || table.state === 'absent') return 'it has no checkpoints table: not a LangGraph checkpoint database'
  if (table.state === 'lacks') return `its checkpoints table lacks ${table.missing.join(', ')}: an unknown schema`
  return `its checkpoints table cannot be read (${table.message})`
}

function checkpointsOf(rows: Row[], errorRows: ErrorRow[]): CheckpointDb {
  const problems: string[] = []
  const unknownExt = new Set<number>()
  const errors = new Map<string, string[]>()
  for (const row of errorRows) {
    const key = `${row.thread_id}\n${row.checkpoint_id}`
    errors.set(key, [...(errors.get(key) ?? []), errorText(row, unknownExt)])
  }
  const threads = new Map<string, GraphThread>()
  for (const row of rows) {
    let thread = threads.get(row.thread_id)
    if (!thread) threads.set(row.thread_id, (thread = { threadId: row.thread_id, checkpoints: [] }))
    thread.checkpoints.push({ ...checkpointOf(row, unknownExt), errors: errors.get(`${row.thread_id}\n${row.checkpoint_id}`) ?? [] })
  }
  for (const thread of threads.values()) {
    for (const checkpoint of thread.checkpoints) if (checkpoint.problem) problems.push(`thread ${thread.threadId}, checkpoint ${checkpoint.id}: ${checkpoint.problem}`)
  }
  if (unknownExt.size > 0) problems.push(`msgpack extension types never seen (${[...unknownExt].join(', ')}) were read as opaque values`)
  return { threads: [...threads.values()], problems }
}

interface Row {
  thread_id: string
  checkpoint_id: string
  parent_checkpoint_id: string | null
  type: string | null
  checkpoint: Uint8Array | null
  metadata: Uint8Array | null
}

interface ErrorRow {
  thread_id: string
  checkpoint_id: string
  type: string | null
  value: Uint8Array | null
}

/** An `__error__` write: the exception's repr as a string (`repr(exc)`), in newer versions maybe the exception object. */
function errorText(row: ErrorRow, unknownExt: Set<number>): string {
  try {
    const value = decodeStored(row.type, row.value, unknownExt)
    if (typeof value === 'string') return value
    if (isPythonObject(value)) return `${value.$class?.split('.').at(-1) ?? 'error'}(${JSON.stringify(value.$args)})`
    return JSON.stringify(value)
  } catch (error) {
    return `(the error could not be read: ${(error as Error).message})`
  }
}

function checkpointOf(row: Row, unknownExt: Set<number>): GraphCheckpoint {
  const base: GraphCheckpoint = { id: row.checkpoint_id, parentId: row.parent_checkpoint_id, ts: null, step: null, source: null, messages: null, hasMessages: false, channels: [], problem: null, errors: [] }
  try {
    const metadata = decodeMetadata(row.metadata, unknownExt)
    base.step = typeof metadata.step === 'number' ? metadata.step : null
    base.source = typeof metadata.source === 'string' ? metadata.source : null
  } catch (error) {
    base.problem = `its metadata cannot be decoded (${(error as Error).message})`
  }
  try {
    const state = decodeStored(row.type, row.checkpoint, unknownExt) as { ts?: unknown; channel_values?: Record<string, unknown> & { messages?: unknown } } | null
    base.ts = typeof state?.ts === 'string' ? state.ts : null
    const values = state?.channel_values ?? {}
    base.channels = Object.keys(values).filter((name) => !INTERNAL_CHANNEL.test(name))
    base.hasMessages = 'messages' in values
    const raw = values.messages
    base.messages = Array.isArray(raw) ? raw.map(chatMessage).filter((message): message is ChatMessage => message !== null) : []
  } catch (error) {
    base.problem = error instanceof UnsupportedSerialization ? `skipped: ${error.message}` : `cannot be decoded (${(error as Error).message})`
  }
  return base
}
