import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import Database from 'better-sqlite3'
import { FIXTURES } from '../../testing/claude-home'

/** fixtures/cursor/current/stores.json: the rows of a workspace store and the global store, as Cursor keeps them. */
export const CURRENT_STORES = join(FIXTURES, 'cursor/current/stores.json')
export const LEGACY_USER_DIR = join(FIXTURES, 'cursor/legacy-0.4x/User')

type Rows = [string, string | null][]
interface StoresSpec {
  workspaceHash: string
  workspace: { ItemTable: Rows; cursorDiskKV: Rows }
  global: { ItemTable: Rows; cursorDiskKV: Rows; composerHeaders: Record<string, string | number | null>[] }
  files: Record<string, string>
}

export function readStoresSpec(): StoresSpec {
  return JSON.parse(readFileSync(CURRENT_STORES, 'utf8')) as StoresSpec
}

/**
 * Cursor's `User` folder under `appData/Cursor/User` built from the spec: the workspace store
 * (`workspaceStorage/<hash>/`, with a workspace.json naming `workspace`) and the global store,
 * with Cursor's schema (`key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB`; the 3.9 `composerHeaders`).
 */
export function buildCurrentStores(appData: string, workspace: string, spec: StoresSpec = readStoresSpec()): { userDir: string; workspaceDb: string; globalDb: string } {
  const userDir = join(appData, 'Cursor', 'User')
  const workspaceDir = join(userDir, 'workspaceStorage', spec.workspaceHash)
  const globalDir = join(userDir, 'globalStorage')
  mkdirSync(workspaceDir, { recursive: true })
  mkdirSync(globalDir, { recursive: true })
  writeFileSync(join(workspaceDir, 'workspace.json'), JSON.stringify({ folder: pathToFileURL(workspace).href }, null, 2))
  const workspaceDb = join(workspaceDir, 'state.vscdb')
  const globalDb = join(globalDir, 'state.vscdb')
  writeStore(workspaceDb, spec.workspace.ItemTable, spec.workspace.cursorDiskKV, null)
  writeStore(globalDb, spec.global.ItemTable, spec.global.cursorDiskKV, spec.global.composerHeaders)
  return { userDir, workspaceDb, globalDb }
}

function writeStore(path: string, items: Rows, kv: Rows, headers: Record<string, string | number | null>[] | null): void {
  const db = new Database(path)
  db.exec('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB); CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)')
  const insert = (table: string) => db.prepare(`INSERT INTO ${table} (key, value) VALUES (?, ?)`)
  for (const [key, value] of items) insert('ItemTable').run(key, value)
  // The column is a BLOB: bubbles go in as bytes of UTF-8 JSON, the rest as text, so both reads are tested.
  for (const [key, value] of kv) insert('cursorDiskKV').run(key, key.startsWith('bubbleId:') && value !== null ? Buffer.from(value) : value)
  if (headers) {
    db.exec('CREATE TABLE composerHeaders (composerId TEXT PRIMARY KEY, workspaceId TEXT, createdAt INTEGER, lastUpdatedAt INTEGER, isArchived INTEGER, isSubagent INTEGER, recency INTEGER, checkpointAt INTEGER, value TEXT)')
    db.exec('CREATE INDEX idx_composerHeaders_0 ON composerHeaders (workspaceId, isSubagent, isArchived, recency)')
    const insertHeader = db.prepare('INSERT INTO composerHeaders VALUES (@composerId, @workspaceId, @createdAt, @lastUpdatedAt, @isArchived, @isSubagent, @recency, @checkpointAt, @value)')
    for (const header of headers) insertHeader.run(header)
  }
  db.close()
}
