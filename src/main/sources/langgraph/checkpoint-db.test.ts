import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { readCheckpointDb } from './checkpoint-db'

const TRAVAI = join(FIXTURES, 'langgraph/travai/checkpoints.sqlite')
const EMAIL = join(FIXTURES, 'langgraph/email-assistant/checkpoints.sqlite')

const roles = (messages: { role: string }[] | null) => {
  const counts: Record<string, number> = {}
  for (const message of messages ?? []) counts[message.role] = (counts[message.role] ?? 0) + 1
  return counts
}

describe('reading a real LangGraph checkpoint database', () => {
  let dir = ''
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = ''
  })

  it('travai: 2 threads of 34 and 20 checkpoints; the first ends with 6 human, 14 AI and 8 tool messages (PROVENANCE.txt)', async () => {
    const db = await readCheckpointDb(TRAVAI)
    expect(db.problems).toEqual([])
    expect(db.threads.map((thread) => [thread.threadId, thread.checkpoints.length])).toEqual([
      ['2405d84a-7495-46d4-ba5f-d1e38a423008', 34],
      ['830d6a41-1331-4bb5-a018-7de5e795b71d', 20]
    ])
    const [first, second] = db.threads
    const latest = first?.checkpoints.at(-1)
    expect(latest?.step).toBe(32)
    expect(roles(latest?.messages ?? null)).toEqual({ user: 6, assistant: 14, tool: 8 })
    expect(latest?.messages?.flatMap((message) => message.toolCalls)).toHaveLength(8)
    expect(roles(second?.checkpoints.at(-1)?.messages ?? null)).toEqual({ user: 4, assistant: 8, tool: 4 })
    // A single chain per thread: each checkpoint continues the one before it.
    for (const thread of db.threads) thread.checkpoints.slice(1).forEach((checkpoint, index) => expect(checkpoint.parentId).toBe(thread.checkpoints[index]?.id))
    // Messages as LangChain wrote them: ids, reasoning, the model, usage, tool results paired by call id.
    const answer = latest?.messages?.find((message) => message.role === 'assistant' && message.usage)
    expect(answer).toMatchObject({ model: 'openai/gpt-oss-120b', usage: { inputTokens: expect.any(Number) as number } })
    const calls = new Set(latest?.messages?.flatMap((message) => message.toolCalls.map((call) => call.id)))
    for (const result of latest?.messages?.filter((message) => message.role === 'tool') ?? []) expect(calls.has(result.toolCallId ?? '')).toBe(true)
  })

  it('email-assistant reads without problems', async () => {
    const db = await readCheckpointDb(EMAIL)
    expect(db.problems).toEqual([])
    expect(db.threads.length).toBeGreaterThan(0)
  })

  it('never writes beside the database, and reads the newest checkpoints from its WAL', async () => {
    dir = mkdtempSync(join(tmpdir(), 'retrace-lg-test-'))
    const path = join(dir, 'checkpoints.sqlite')
    copyFileSync(TRAVAI, path)
    // A saver still running: its last checkpoint only in the -wal file.
    const writer = new Database(path)
    writer.pragma('journal_mode = WAL')
    writer.pragma('wal_autocheckpoint = 0')
    const last = writer.prepare("SELECT * FROM checkpoints WHERE thread_id LIKE '830d%' ORDER BY checkpoint_id DESC LIMIT 1").get() as Record<string, unknown>
    writer.prepare('INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      'wal-only-thread', '', 'z-1', null, last.type, last.checkpoint, last.metadata
    )
    const before = readdirSync(dir).map((name) => [name, statSync(join(dir, name)).mtimeMs, statSync(join(dir, name)).size])
    const db = await readCheckpointDb(path)
    expect(db.threads.map((thread) => thread.threadId)).toContain('wal-only-thread')
    expect(readdirSync(dir).map((name) => [name, statSync(join(dir, name)).mtimeMs, statSync(join(dir, name)).size])).toEqual(before)
    writer.close()
  })

  it('refuses pickled checkpoints by name and reads the rest; an unknown schema is reported, not thrown', async () => {
    dir = mkdtempSync(join(tmpdir(), 'retrace-lg-test-'))
    const path = join(dir, 'checkpoints.sqlite')
    copyFileSync(TRAVAI, path)
    const db = new Database(path)
    db.prepare("UPDATE checkpoints SET type = 'pickle' WHERE checkpoint_id = (SELECT min(checkpoint_id) FROM checkpoints WHERE thread_id LIKE '830d%')").run()
    db.close()
    const read = await readCheckpointDb(path)
    expect(read.problems).toHaveLength(1)
    expect(read.problems[0]).toMatch(/830d.*pickle.*does not read/)
    expect(read.threads[1]?.checkpoints.filter((checkpoint) => checkpoint.messages !== null)).toHaveLength(19)

    const other = join(dir, 'other.sqlite')
    const foreign = new Database(other)
    foreign.exec('CREATE TABLE checkpoints (id INTEGER PRIMARY KEY, data BLOB)')
    foreign.close()
    expect(await readCheckpointDb(other)).toEqual({ threads: [], problems: [expect.stringMatching(/lacks thread_id.*unknown schema/) as string] })
  })
})
