import type { Db } from '../database'
import type { SessionPricing } from './session-pricing'

/** Where a session's tail starts: the first message that leaves, and the turn it is in. */
export interface TailStart {
  fromRowId: number
  /** The branch: already inserted, holding the copy of the session's messages and checkpoints before the tail. */
  toRowId: number
  seq: number
  turn: number
  /** The tail starts inside its turn (a retried answer): the turn's prompt stays with the session. */
  midTurn: boolean
}

interface Totals {
  input_tokens: number
  output_tokens: number
  cache_read_tokens: number
  cache_write_tokens: number
  cost_usd: number | null
}

interface SessionCounts extends Totals {
  message_count: number
  turn_count: number
  context_start_seq: number
  updated_at: number
  model: string | null
}

/**
 * Moves the tail of a session into a branch of its own: the line of an agent's history that the
 * user left by rewinding inside the agent. The branch, which already holds a copy of the
 * session's prefix (as a fork made in Retrace does), gets the tail's own rows: its messages,
 * checkpoints, file changes and the sessions started from it (sub-agents, forks). Seqs and turns
 * are kept, so every reference to a message or turn of the tail stays valid in the branch. Run
 * in a transaction.
 */
export class SessionSplitRepository {
  private readonly countsStmt
  private readonly tailTotalsStmt
  private readonly moveMessagesStmt
  private readonly moveCheckpointsStmt
  private readonly moveScopesStmt
  private readonly moveNotCapturedStmt
  private readonly deepenChildrenStmt
  private readonly moveChildrenStmt
  private readonly lastCompactionStmt
  private readonly setCountsStmt
  private readonly toolCallStmt
  private readonly promptStmt

  constructor(db: Db, private readonly pricing: SessionPricing) {
    this.countsStmt = db.prepare(
      `SELECT message_count, turn_count, context_start_seq, updated_at, model, input_tokens, output_tokens, cache_read_tokens,
         cache_write_tokens, cost_usd FROM sessions WHERE id = ?`
    )
    this.tailTotalsStmt = db.prepare(
      `SELECT coalesce(sum(input_tokens), 0) AS input_tokens, coalesce(sum(output_tokens), 0) AS output_tokens,
         coalesce(sum(cache_read_tokens), 0) AS cache_read_tokens, coalesce(sum(cache_write_tokens), 0) AS cache_write_tokens,
         sum(cost_usd) AS cost_usd
       FROM messages WHERE session_id = ? AND seq >= ?`
    )
    this.moveMessagesStmt = db.prepare('UPDATE messages SET session_id = @to WHERE session_id = @from AND seq >= @seq')
    this.moveCheckpointsStmt = db.prepare('UPDATE checkpoints SET session_id = @to WHERE session_id = @from AND turn >= @turn')
    this.moveNotCapturedStmt = db.prepare('UPDATE not_captured_changes SET session_id = @to WHERE session_id = @from AND turn >= @turn')
    this.moveScopesStmt = db.prepare("UPDATE journal_scopes SET session_id = @to WHERE session_id = @from AND kind = 'turn' AND turn >= @turn")
    // Sessions started from the tail: a sub-agent at its tool call, a fork at a later turn. A
    // branch at the very same seq forks where this one does: it stays a sibling.
    const startedFromTail = `parent_id = @from AND id != @to AND (fork_seq > @seq OR (fork_seq = @seq AND kind != 'branch'))`
    this.deepenChildrenStmt = db.prepare(
      `WITH RECURSIVE moved(id) AS (
         SELECT id FROM sessions WHERE ${startedFromTail}
         UNION ALL SELECT s.id FROM sessions s JOIN moved m ON s.parent_id = m.id)
       UPDATE sessions SET depth = depth + 1 WHERE id IN (SELECT id FROM moved)`
    )
    this.moveChildrenStmt = db.prepare(`UPDATE sessions SET parent_id = @to WHERE ${startedFromTail}`)
    this.lastCompactionStmt = db.prepare("SELECT max(seq) AS seq FROM messages WHERE session_id = ? AND role = 'compaction_summary' AND seq < ?")
    this.setCountsStmt = db.prepare(
      `UPDATE sessions SET message_count = @message_count, turn_count = @turn_count, context_start_seq = @context_start_seq,
         updated_at = @updated_at, model = coalesce(@model, model), input_tokens = @input_tokens, output_tokens = @output_tokens,
         cache_read_tokens = @cache_read_tokens, cache_write_tokens = @cache_write_tokens, cost_usd = @cost_usd
       WHERE id = @id`
    )
    // The session itself first: a branch holds a copy of its prefix, where the call is the session's.
    this.toolCallStmt = db.prepare(
      `SELECT s.id AS rowId, s.depth, m.seq FROM messages m JOIN sessions s ON s.id = m.session_id
       WHERE m.tool_call_id = @toolCallId AND m.role = 'tool_call'
         AND (s.id = @rowId OR (s.parent_id = @rowId AND s.rewound_in_agent = 1 AND m.seq >= s.fork_seq))
       ORDER BY s.id != @rowId, m.seq LIMIT 1`
    )
    this.promptStmt = db.prepare("SELECT content FROM messages WHERE session_id = ? AND turn = ? AND role = 'user' ORDER BY seq LIMIT 1")
  }

  /** The prompt that opened a turn of a session, if it has one. */
  promptOfTurn(rowId: number, turn: number): string | undefined {
    return (this.promptStmt.get(rowId, turn) as { content: string } | undefined)?.content
  }

  moveTail(tail: TailStart): void {
    const counts = this.countsStmt.get(tail.fromRowId) as SessionCounts | undefined
    if (!counts) throw new Error(`No session with row id ${tail.fromRowId}.`)
    const moved = this.tailTotalsStmt.get(tail.fromRowId, tail.seq) as Totals
    const rows = { from: tail.fromRowId, to: tail.toRowId, seq: tail.seq, turn: tail.turn }
    this.moveMessagesStmt.run(rows)
    this.moveCheckpointsStmt.run(rows)
    this.moveScopesStmt.run(rows)
    this.moveNotCapturedStmt.run(rows)
    this.deepenChildrenStmt.run(rows)
    this.moveChildrenStmt.run(rows)
    // The branch: everything the session was, its usage only what the tail used.
    this.setCountsStmt.run({ id: tail.toRowId, ...counts, ...moved })
    // The session: back to just before the tail, its context from its last compaction before it.
    const contextStart = counts.context_start_seq < tail.seq ? counts.context_start_seq : ((this.lastCompactionStmt.get(tail.fromRowId, tail.seq) as { seq: number | null }).seq ?? 0)
    this.setCountsStmt.run({
      id: tail.fromRowId,
      message_count: tail.seq,
      turn_count: tail.midTurn ? tail.turn : tail.turn - 1,
      context_start_seq: contextStart,
      updated_at: counts.updated_at,
      model: null,
      input_tokens: counts.input_tokens - moved.input_tokens,
      output_tokens: counts.output_tokens - moved.output_tokens,
      cache_read_tokens: counts.cache_read_tokens - moved.cache_read_tokens,
      cache_write_tokens: counts.cache_write_tokens - moved.cache_write_tokens,
      cost_usd: counts.cost_usd === null ? null : counts.cost_usd - (moved.cost_usd ?? 0)
    })
    // Each side's priced cost is that of the messages it now holds.
    this.pricing.reprice([tail.fromRowId, tail.toRowId])
  }

  /**
   * The session holding the tool call `toolCallId` among `rowId` and the lines split off it:
   * a sub-agent hangs where its call is, which may be on a line the user left.
   */
  toolCallOwner(rowId: number, toolCallId: string): { rowId: number; depth: number; seq: number } | undefined {
    return this.toolCallStmt.get({ rowId, toolCallId }) as { rowId: number; depth: number; seq: number } | undefined
  }
}
