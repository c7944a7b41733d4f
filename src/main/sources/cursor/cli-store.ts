import { createHash } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import type { SnapshotRead } from '../adapter'
import { readForeignDb, ReadTimeLimit, type TableResult } from '../foreign-db/read-foreign-db'
import { isRecord } from '../plain-data'
import type { SourceRecord } from '../records'
import { cliMessageRecords } from './cli-messages'

/**
 * A Cursor CLI chat, `~/.cursor/chats/<md5 of cwd>/<chat id>/store.db`: `meta` (key `'0'`: the
 * chat's JSON, often hex-encoded: `agentId`, `name`, `createdAt`, `model`, `latestRootBlobId`,
 * `subagentInfo` on a sub-agent's store) and `blobs(id, data)`, content-addressed by SHA-256 hex.
 * The root blob is protobuf: field 1 repeats the 32-byte ids of the messages in order, field 9 is
 * the workspace URI. Read whole, read-only, from a copy (foreign-db/).
 */
export async function readCliStore(path: string, chatId: string): Promise<SnapshotRead> {
  const read = await readForeignDb(path, {
    meta: { columns: ['key', 'value'], required: ['key', 'value'] },
    blobs: { columns: ['id', 'data'], required: ['id', 'data'] }
  })
  if (!read.ok) {
    if (read.kind === 'time-limit') throw new ReadTimeLimit(read.problem)
    return { sessions: [], problems: [read.problem] }
  }
  const metaRow = rowsOf(read.tables.meta).find((row) => String(row.key) === '0')
  const blobs = new Map(rowsOf(read.tables.blobs).flatMap((row) => (row.data instanceof Uint8Array ? [[String(row.id), row.data] as const] : [])))
  return cliChatSession(chatId, metaRow ? textOf(metaRow.value) : null, blobs)
}

/** The chat as one session (pure: the store's rows in, records out). */
export function cliChatSession(chatId: string, metaText: string | null, blobs: Map<string, Uint8Array>): SnapshotRead {
  const meta = parseObject(metaText === null ? null : /^[0-9a-f]+$/i.test(metaText) ? Buffer.from(metaText, 'hex').toString('utf8') : metaText)
  if (!meta) return { sessions: [], problems: [`chat ${chatId}: its meta row is missing or not JSON, so it was not read`] }
  const rootId = typeof meta.latestRootBlobId === 'string' ? meta.latestRootBlobId : null
  const root = rootId ? blobs.get(rootId) : undefined
  if (!root) return { sessions: [], problems: [`chat ${chatId}: its root blob ${rootId ?? '(none)'} is missing, so it was not read`] }
  const { ids, cwd } = parseRoot(root)
  const createdAt = typeof meta.createdAt === 'number' ? meta.createdAt : typeof meta.createdAt === 'string' ? Number(meta.createdAt) || Date.parse(meta.createdAt) : NaN
  const title = typeof meta.name === 'string' && meta.name.trim() && meta.name !== 'New Agent' ? meta.name.trim() : undefined
  const records: SourceRecord[] = [
    {
      kind: 'session-meta',
      offset: 0,
      sessionId: chatId,
      ...(title ? { title, titleOrigin: 'ai' as const } : {}),
      ...(cwd ? { cwd } : {}),
      ...(typeof meta.model === 'string' && meta.model && meta.model !== 'default' ? { model: meta.model } : {}),
      ...(Number.isFinite(createdAt) && createdAt > 0 ? { createdAt } : {})
    }
  ]
  ids.forEach((id, index) => {
    const offset = index + 1
    const data = blobs.get(id)
    const parsed = data ? parseObject(Buffer.from(data).toString('utf8')) : null
    const messages = parsed ? cliMessageRecords(parsed, id, offset) : null
    if (messages) records.push(...messages)
    else records.push({ kind: 'skipped', offset, reason: data ? `message ${id} of chat ${chatId} is not a message Retrace reads` : `message ${id} of chat ${chatId} is missing from its store` })
  })
  const fingerprint = createHash('sha256').update(rootId ?? '').update(metaText ?? '').digest('hex')
  const startedAt = Number.isFinite(createdAt) && createdAt > 0 ? createdAt : undefined
  return { sessions: [{ key: chatId, fingerprint, forkedFrom: null, startedAt, records }], problems: [] }
}

/** The two fields of the root blob Retrace needs; an unknown wire type stops the walk (never misread). */
export function parseRoot(data: Uint8Array): { ids: string[]; cwd: string | null } {
  const ids: string[] = []
  let cwd: string | null = null
  let at = 0
  const varint = (): number | null => {
    let value = 0
    for (let shift = 0; at < data.length && shift <= 49; shift += 7) {
      const byte = data[at++] ?? 0
      value += (byte & 0x7f) * 2 ** shift
      if ((byte & 0x80) === 0) return value
    }
    return null
  }
  while (at < data.length) {
    const tag = varint()
    if (tag === null) break
    const field = Math.floor(tag / 8)
    const wire = tag % 8
    if (wire === 0 && varint() !== null) continue
    if (wire === 1 || wire === 5) {
      at += wire === 1 ? 8 : 4
      continue
    }
    const length = wire === 2 ? varint() : null
    if (length === null || length > data.length - at) break
    const bytes = data.subarray(at, at + length)
    at += length
    if (field === 1 && length === 32) ids.push(Buffer.from(bytes).toString('hex'))
    if (field === 9) {
      const uri = Buffer.from(bytes).toString('utf8')
      if (uri.startsWith('file://')) cwd = pathOfUri(uri)
    }
  }
  return { ids, cwd }
}

function pathOfUri(uri: string): string | null {
  try {
    return fileURLToPath(uri)
  } catch {
    return null
  }
}

function parseObject(text: string | null): Record<string, unknown> | null {
  if (text === null) return null
  try {
    const value = JSON.parse(text) as unknown
    return isRecord(value) ? value : null
  } catch {
    return null
  }
}

function rowsOf(table: TableResult | undefined): Record<string, unknown>[] {
  return table?.state === 'read' ? table.rows : []
}

function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8')
  return null
}
