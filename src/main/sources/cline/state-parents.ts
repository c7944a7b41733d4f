import { statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { readForeignDb } from '../foreign-db/read-foreign-db'
import { isObject } from './ui-messages'

/**
 * VS Code keeps an extension's global state in `<User>/globalStorage/state.vscdb`, table
 * `ItemTable`, one row per extension keyed by its id as published (the storage folder's name is
 * the same id lower-cased): Roo Code and Kilo Code before their per-task history item (Roo 3.48)
 * kept each task's `parentTaskId` only there, in `taskHistory`.
 */
const STATE_KEYS: Readonly<Record<string, readonly string[]>> = {
  'rooveterinaryinc.roo-cline': ['RooVeterinaryInc.roo-cline', 'rooveterinaryinc.roo-cline'],
  'kilocode.kilo-code': ['kilocode.Kilo-Code', 'kilocode.kilo-code']
}

interface StateParents {
  parents: Map<string, string>
  /** Why the database was not read, said once. */
  problem: string | undefined
}

/** By database, while its size and time stay the same: one read per import, not one per task. */
const cache = new Map<string, { stamp: string; read: Promise<StateParents> }>()

/** Task id → parent task id, from the state database beside the extension's storage folder. */
export async function stateParents(storage: string): Promise<StateParents> {
  const extension = basename(storage).toLowerCase()
  const keys = STATE_KEYS[extension]
  const db = join(dirname(storage), 'state.vscdb')
  const stamp = keys ? stampOf(db) : null
  if (!keys || stamp === null) return { parents: new Map(), problem: undefined }
  const cached = cache.get(db)
  if (cached?.stamp === stamp) return { parents: (await cached.read).parents, problem: undefined }
  const read = readParents(db, extension, keys)
  cache.set(db, { stamp, read })
  return read
}

async function readParents(db: string, extension: string, keys: readonly string[]): Promise<StateParents> {
  const read = await readForeignDb(db, { ItemTable: { columns: ['key', 'value'], required: ['key', 'value'], prefixes: { key: keys } } })
  const parents = new Map<string, string>()
  if (!read.ok) return { parents, problem: `${read.problem}; sub-tasks without history_item.json are not linked to their parents` }
  const table = read.tables.ItemTable
  for (const row of table?.state === 'read' ? table.rows : []) {
    if (typeof row.key !== 'string' || row.key.toLowerCase() !== extension) continue
    const text = Buffer.isBuffer(row.value) || row.value instanceof Uint8Array ? Buffer.from(row.value).toString('utf8') : row.value
    let state: unknown
    try {
      state = typeof text === 'string' ? JSON.parse(text) : undefined
    } catch {
      continue
    }
    const history = isObject(state) && Array.isArray(state.taskHistory) ? (state.taskHistory as unknown[]) : []
    for (const item of history) {
      if (isObject(item) && typeof item.id === 'string' && typeof item.parentTaskId === 'string' && item.parentTaskId) parents.set(item.id, item.parentTaskId)
    }
  }
  return { parents, problem: undefined }
}

function stampOf(db: string): string | null {
  try {
    const stats = statSync(db)
    let wal = '-'
    try {
      const walStats = statSync(`${db}-wal`)
      wal = `${walStats.size}:${walStats.mtimeMs}`
    } catch {
      // No write-ahead log beside it.
    }
    return `${stats.size}:${stats.mtimeMs}:${wal}`
  } catch {
    return null
  }
}
