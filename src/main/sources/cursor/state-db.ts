import { readForeignDb, ReadTimeLimit, type TableResult } from '../foreign-db/read-foreign-db'
import { isRecord } from '../plain-data'

/** What Retrace reads of Cursor's stores for one workspace; values are the stores' raw JSON text. */
export interface CursorStores {
  /** `composer.composerData` of the workspace store: its composers (before Cursor 3.0, the list of them). */
  workspaceComposers: Record<string, unknown>[]
  /** Global `composerData:<id>` values by composer id. */
  composers: Map<string, string>
  /** Global `bubbleId:<composer>:<bubble>` values by composer id, then bubble id. */
  bubbles: Map<string, Map<string, string>>
  /** File contents an edit's result names (`composer.content.<sha256>` rows), by key. */
  contents: Map<string, string>
  /** What could not be read: for the import report. */
  problems: string[]
}

const KV_COLUMNS = ['key', 'value']
/**
 * Cursor 3.0 to 3.8 no longer list a workspace's composers in its own store, and `composerHeaders`
 * came later (not backfilled): the global `composer.composerHeaders` heads of the recently open
 * composers, each naming its workspace (`workspaceIdentifier.id`, the workspace-storage hash), are
 * what attributes those.
 */
function recentTabsOf(text: string | null, workspaceHash: string): string[] {
  const heads = parseJson(text)
  if (!isRecord(heads) || !Array.isArray(heads.allComposers)) return []
  return heads.allComposers.flatMap((head) =>
    isRecord(head) && typeof head.composerId === 'string' && isRecord(head.workspaceIdentifier) && head.workspaceIdentifier.id === workspaceHash ? [head.composerId] : []
  )
}

/** Sub-agents' composers are found in their parents' data: read in further rounds, this many at most. */
const MAX_ROUNDS = 4

/**
 * Read one workspace's conversations without touching Cursor's stores (each read is a copy, in a
 * process of its own: readForeignDb). The workspace store names its composers (`composer.composerData`
 * in `ItemTable`); since Cursor 3.9 the global `composerHeaders` table names them too, by workspace
 * hash. Their contents are the global store's `cursorDiskKV` rows, read by key prefix only.
 */
export async function readCursorStores(workspaceDb: string, globalDb: string | null, workspaceHash: string): Promise<CursorStores> {
  const stores: CursorStores = { workspaceComposers: [], composers: new Map(), bubbles: new Map(), contents: new Map(), problems: [] }
  const own = await readOrThrow(workspaceDb, { ItemTable: { columns: KV_COLUMNS, required: KV_COLUMNS, where: { key: 'composer.composerData' } } })
  if (!own.ok) return { ...stores, problems: [own.problem] }
  const listed = parseJson(textOf(rowsOf(own.tables.ItemTable)[0]?.value))
  if (isRecord(listed) && Array.isArray(listed.allComposers)) stores.workspaceComposers = listed.allComposers.filter(isRecord)
  const wanted = new Set(stores.workspaceComposers.flatMap((composer) => (typeof composer.composerId === 'string' ? [composer.composerId] : [])))
  const read = new Set<string>()
  // An old Cursor without a global store kept each conversation whole in the workspace's list.
  if (globalDb === null) return stores
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const ids = [...wanted].filter((id) => !read.has(id))
    if (round > 0 && ids.length === 0) break
    for (const id of ids) read.add(id)
    const global = await readOrThrow(globalDb, {
      cursorDiskKV: { columns: KV_COLUMNS, required: KV_COLUMNS, prefixes: { key: ids.flatMap((id) => [`composerData:${id}`, `bubbleId:${id}:`]) } },
      ...(round === 0
        ? {
            composerHeaders: { columns: ['composerId'], required: ['composerId', 'workspaceId'], where: { workspaceId: workspaceHash } },
            ItemTable: { columns: KV_COLUMNS, required: KV_COLUMNS, where: { key: 'composer.composerHeaders' } }
          }
        : {})
    })
    if (!global.ok) {
      stores.problems.push(global.problem)
      break
    }
    for (const row of rowsOf(global.tables.cursorDiskKV)) keep(stores, String(row.key), textOf(row.value))
    for (const row of rowsOf(global.tables.composerHeaders)) if (typeof row.composerId === 'string') wanted.add(row.composerId)
    for (const id of recentTabsOf(textOf(rowsOf(global.tables.ItemTable)[0]?.value), workspaceHash)) wanted.add(id)
    for (const id of ids) for (const child of childIds(stores.composers.get(id))) wanted.add(child)
  }
  await readContents(stores, globalDb)
  return stores
}

/** The before and after contents the composers' file edits name (`edit_file_v2` results, since 2026). */
async function readContents(stores: CursorStores, globalDb: string): Promise<void> {
  const keys = [...stores.bubbles.values()].flatMap((bubbles) => [...bubbles.values()].flatMap(contentKeys))
  if (keys.length === 0) return
  const read = await readOrThrow(globalDb, { cursorDiskKV: { columns: KV_COLUMNS, required: KV_COLUMNS, prefixes: { key: [...new Set(keys)] } } })
  if (!read.ok) return void stores.problems.push(read.problem)
  const wanted = new Set(keys)
  for (const row of rowsOf(read.tables.cursorDiskKV)) {
    const value = textOf(row.value)
    if (wanted.has(String(row.key)) && value !== null) stores.contents.set(String(row.key), value)
  }
}

/** The content keys a bubble's tool result names. */
export function contentKeys(bubble: string): string[] {
  const value = parseJson(bubble)
  const tool = isRecord(value) && isRecord(value.toolFormerData) ? value.toolFormerData : null
  const result = typeof tool?.result === 'string' ? parseJson(tool.result) : null
  if (!isRecord(result)) return []
  return [result.beforeContentId, result.afterContentId].filter((key): key is string => typeof key === 'string' && key.startsWith(CONTENT_PREFIX))
}

export const CONTENT_PREFIX = 'composer.content.'

function keep(stores: CursorStores, key: string, value: string | null): void {
  if (value === null) return
  const [kind, composerId, bubbleId, ...rest] = key.split(':')
  if (!composerId || rest.length > 0) return
  if (kind === 'composerData' && bubbleId === undefined) stores.composers.set(composerId, value)
  if (kind === 'bubbleId' && bubbleId) {
    let bubbles = stores.bubbles.get(composerId)
    if (!bubbles) stores.bubbles.set(composerId, (bubbles = new Map<string, string>()))
    bubbles.set(bubbleId, value)
  }
}

/** Sub-agents' composers (`subagentComposerIds`) and sub-composers (`subComposerIds`) a composer names. */
function childIds(value: string | undefined): string[] {
  const data = parseJson(value ?? null)
  if (!isRecord(data)) return []
  return [data.subagentComposerIds, data.subComposerIds].flatMap((ids) => (Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : []))
}

async function readOrThrow(...args: Parameters<typeof readForeignDb>) {
  const read = await readForeignDb(...args)
  // Too slow this time: thrown on, so the store is read again at the next import.
  if (!read.ok && read.kind === 'time-limit') throw new ReadTimeLimit(read.problem)
  return read
}

function rowsOf(table: TableResult | undefined): Record<string, unknown>[] {
  return table?.state === 'read' ? table.rows : []
}

/** A value stored as TEXT or as a BLOB of UTF-8 (Cursor writes both). */
function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8')
  return null
}

export function parseJson(text: string | null): unknown {
  if (text === null) return null
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
