import { randomUUID } from 'node:crypto'
import type { Db } from '../../src/main/store/database'
import type { Batch, Op } from './batches'
import type { PlannedMessage, PlannedSession } from './plan'
import type { Commit } from './write-stats'

/** Per-session counters the reference keeps itself (the recorder's SessionWriter keeps the same). */
interface Cursor {
  rowId: number
  seq: number
  turn: number
  turnStartSeq: number
  turnOpen: boolean
  lastActivityAt: number
}

/**
 * The reference writer: the same rows (sessions with their final counters, messages,
 * checkpoints) with one prepared INSERT per row, no validation, no read-back, no per-message
 * session update. It is the floor the recorder is compared with.
 */
export function bareCommit(db: Db, workspaceId: number, cwd: string): Commit {
  const insertSession = db.prepare(
    `INSERT INTO sessions (uid, workspace_id, source, title, kind, depth, status, model, cwd, created_at, updated_at, message_count,
       turn_count, context_start_seq, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd)
     VALUES (?, ?, 'native', ?, 'main', 0, 'active', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  const insertMessage = db.prepare(
    `INSERT INTO messages (session_id, seq, turn, role, content, tool_name, tool_call_id, tool_input, is_error, in_context,
       model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, created_at, source_ref)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, NULL)`
  )
  const insertCheckpoint = db.prepare('INSERT INTO checkpoints (session_id, turn, messages_before, created_at) VALUES (?, ?, ?, ?)')
  const cursors = new Map<number, Cursor>()

  const message = (cursor: Cursor, role: string, m: Omit<PlannedMessage, 'role'>): void => {
    const u = m.usage
    insertMessage.run(cursor.rowId, cursor.seq, cursor.turn, role, m.content, m.toolName ?? null, m.toolCallId ?? null,
      m.toolInput === undefined ? null : JSON.stringify(m.toolInput), m.isError ? 1 : 0, m.model ?? null,
      u?.inputTokens ?? null, u?.outputTokens ?? null, u?.cacheReadTokens ?? null, u?.cacheWriteTokens ?? null, u?.costUsd ?? null, m.createdAt)
    cursor.seq += 1
    cursor.lastActivityAt = m.createdAt
  }

  const apply = (op: Op): void => {
    if (op.kind === 'start') {
      const t = totals(op.session)
      const rowId = Number(insertSession.run(randomUUID(), workspaceId, op.session.title, t.model, cwd, op.session.createdAt, t.updatedAt,
        op.session.messageCount, t.turns, t.contextStartSeq, t.inputTokens, t.outputTokens, t.cacheReadTokens, t.cacheWriteTokens, t.costUsd).lastInsertRowid)
      cursors.set(op.session.index, { rowId, seq: 0, turn: 0, turnStartSeq: 0, turnOpen: false, lastActivityAt: op.session.createdAt })
      return
    }
    const cursor = cursors.get(op.sessionIndex)
    if (!cursor) throw new Error(`session ${op.sessionIndex} was not started`)
    const { step } = op
    if (step.kind === 'append') {
      if (step.message.role === 'user') {
        cursor.turn += 1
        cursor.turnStartSeq = cursor.seq
        cursor.turnOpen = true
      }
      message(cursor, step.message.role, step.message)
    } else if (step.kind === 'closeTurn') {
      if (!cursor.turnOpen) return
      insertCheckpoint.run(cursor.rowId, cursor.turn, cursor.turnStartSeq, cursor.lastActivityAt)
      cursor.turnOpen = false
    } else {
      message(cursor, 'compaction_summary', { content: step.summary, createdAt: step.createdAt })
    }
  }
  const commit = db.transaction((batch: Batch) => batch.ops.forEach(apply))
  return (batch) => commit(batch)
}

/** A session's final counters, as the recorder leaves them after its last call. */
function totals(session: PlannedSession) {
  const t = { turns: 0, updatedAt: session.createdAt, contextStartSeq: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null as number | null, model: null as string | null }
  let seq = 0
  for (const step of session.steps) {
    if (step.kind === 'closeTurn') continue
    if (step.kind === 'compact') {
      t.contextStartSeq = seq
      t.updatedAt = step.createdAt
    } else {
      const m = step.message
      if (m.role === 'user') t.turns += 1
      if (m.model) t.model = m.model
      if (m.usage) {
        t.inputTokens += m.usage.inputTokens
        t.outputTokens += m.usage.outputTokens
        t.cacheReadTokens += m.usage.cacheReadTokens
        t.cacheWriteTokens += m.usage.cacheWriteTokens
        t.costUsd = (t.costUsd ?? 0) + m.usage.costUsd
      }
      t.updatedAt = m.createdAt
    }
    seq += 1
  }
  return t
}
