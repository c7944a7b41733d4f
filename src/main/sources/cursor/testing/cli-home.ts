import { createHash } from 'node:crypto'
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import Database from 'better-sqlite3'
import { FIXTURES } from '../../testing/claude-home'
import { chatsHash, projectSlug } from '../cli-discover'

export const CLI_FIXTURES = join(FIXTURES, 'cursor/cli')

interface ChatSpec {
  chatId: string
  meta: Record<string, unknown>
  sidecar: Record<string, unknown>
  messages: (Record<string, unknown> | 'MISSING')[]
}

export function readChatSpec(): ChatSpec {
  return JSON.parse(readFileSync(join(CLI_FIXTURES, 'chat-store.json'), 'utf8')) as ChatSpec
}

/** Protobuf length-delimited field (wire type 2): tag, length, bytes. */
function lengthDelimited(field: number, bytes: Buffer): Buffer {
  const varint = (value: number) => {
    const out: number[] = []
    while (value > 0x7f) {
      out.push((value & 0x7f) | 0x80)
      value >>>= 7
    }
    out.push(value)
    return Buffer.from(out)
  }
  return Buffer.concat([varint((field << 3) | 2), varint(bytes.length), bytes])
}

/**
 * `~/.cursor` of a test: the fixture transcripts under `projects/<slug of workspace>/`, and the
 * chat store built from chat-store.json under `chats/<md5 of workspace>/<id>/` the way the CLI
 * keeps it (blobs by SHA-256, the root as protobuf naming them in order and the workspace URI,
 * meta `'0'` hex-encoded JSON, meta.json beside it).
 */
export function buildCliHome(home: string, workspace: string, spec: ChatSpec = readChatSpec()): { transcripts: string; store: string } {
  const transcripts = join(home, '.cursor', 'projects', projectSlug(workspace), 'agent-transcripts')
  cpSync(join(CLI_FIXTURES, 'agent-transcripts'), transcripts, { recursive: true })
  const chatDir = join(home, '.cursor', 'chats', chatsHash(workspace), spec.chatId)
  mkdirSync(chatDir, { recursive: true })
  const store = join(chatDir, 'store.db')
  const db = new Database(store)
  db.exec('CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB); CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)')
  const insert = db.prepare('INSERT OR REPLACE INTO blobs (id, data) VALUES (?, ?)')
  const ids = spec.messages.map((message) => {
    const data = Buffer.from(JSON.stringify(message === 'MISSING' ? { role: 'user', content: 'never stored' } : message))
    const id = createHash('sha256').update(data).digest()
    if (message !== 'MISSING') insert.run(id.toString('hex'), data)
    return id
  })
  const root = Buffer.concat([...ids.map((id) => lengthDelimited(1, id)), lengthDelimited(9, Buffer.from(pathToFileURL(workspace).href))])
  const rootId = createHash('sha256').update(root).digest('hex')
  insert.run(rootId, root)
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('0', Buffer.from(JSON.stringify({ ...spec.meta, latestRootBlobId: rootId })).toString('hex'))
  db.close()
  writeFileSync(join(chatDir, 'meta.json'), JSON.stringify({ ...spec.sidecar, cwd: workspace }))
  return { transcripts, store }
}
