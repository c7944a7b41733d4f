import type Database from 'better-sqlite3'
import { readDatabaseCopy } from '../database-copy'
import { chatMessage, type ChatMessage } from './messages'
import { decodeMetadata, decodeStored, UnsupportedSerialization } from './serde'

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
  /** Why this checkpoint could not be read, when it could not. */
  problem: string | null
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

const REQUIRED_COLUMNS = ['thread_id', 'checkpoint_id', 'parent_checkpoint_id', 'type', 'checkpoint', 'metadata']

/**
 * Read a LangGraph SqliteSaver / AsyncSqliteSaver database without touching it: the file (and
 * its `-wal`, which may hold the newest checkpoints) is copied to a temporary folder and the copy
 * opened read-only, so not even a shared-memory file appears beside the original. Only the root
 * namespace is read (subgraph checkpoints, `checkpoint_ns` ≠ '', belong to their parent's steps).
 */
export function readCheckpointDb(path: string): CheckpointDb {
  return readDatabaseCopy(path, readOpen)
}

/** Only the thread ids of a checkpoint database (no checkpoint decoded); none when it is not one. */
export function readThreadIds(path: string): string[] {
  return readDatabaseCopy(path, (db) => {
    const hasThreads = db.prepare("SELECT 1 FROM pragma_table_info('checkpoints') WHERE name = 'thread_id'").get() !== undefined
    return hasThreads ? (db.prepare('SELECT DISTINCT thread_id FROM checkpoints ORDER BY thread_id').pluck().all() as string[]) : []
  })
}

function readOpen(db: Database.Database): CheckpointDb {
  const problems: string[] = []
  const columns = new Set((db.prepare("SELECT name FROM pragma_table_info('checkpoints')").all() as { name: string }[]).map((row) => row.name))
  if (columns.size === 0) return { threads: [], problems: ['it has no checkpoints table: not a LangGraph checkpoint database'] }
  const missing = REQUIRED_COLUMNS.filter((column) => !columns.has(column))
  if (missing.length > 0) return { threads: [], problems: [`its checkpoints table lacks ${missing.join(', ')}: an unknown schema`] }
  const namespace = columns.has('checkpoint_ns') ? "WHERE checkpoint_ns = ''" : ''
  const rows = db.prepare(`SELECT thread_id, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata FROM checkpoints ${namespace} ORDER BY thread_id, checkpoint_id`).all() as Row[]
  const unknownExt = new Set<number>()
  const threads = new Map<string, GraphThread>()
  for (const row of rows) {
    let thread = threads.get(row.thread_id)
    if (!thread) threads.set(row.thread_id, (thread = { threadId: row.thread_id, checkpoints: [] }))
    thread.checkpoints.push(checkpointOf(row, unknownExt))
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

function checkpointOf(row: Row, unknownExt: Set<number>): GraphCheckpoint {
  const base: GraphCheckpoint = { id: row.checkpoint_id, parentId: row.parent_checkpoint_id, ts: null, step: null, source: null, messages: null, problem: null }
  try {
    const metadata = decodeMetadata(row.metadata, unknownExt)
    base.step = typeof metadata.step === 'number' ? metadata.step : null
    base.source = typeof metadata.source === 'string' ? metadata.source : null
  } catch (error) {
    base.problem = `its metadata cannot be decoded (${(error as Error).message})`
  }
  try {
    const state = decodeStored(row.type, row.checkpoint, unknownExt) as { ts?: unknown; channel_values?: { messages?: unknown } } | null
    base.ts = typeof state?.ts === 'string' ? state.ts : null
    const raw = state?.channel_values?.messages
    base.messages = Array.isArray(raw) ? raw.map(chatMessage).filter((message): message is ChatMessage => message !== null) : []
  } catch (error) {
    base.problem = error instanceof UnsupportedSerialization ? `skipped: ${error.message}` : `cannot be decoded (${(error as Error).message})`
  }
  return base
}
