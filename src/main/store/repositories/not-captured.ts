import type { NotCapturedChange } from '../../../shared/contract'
import type { Db } from '../database'

export interface NewNotCapturedChange extends NotCapturedChange {
  toolCallId: string | null
  sourceFile: string | null
  sourceOffset: number | null
}

interface NotCapturedRow {
  turn: number
  tool: string
  path: string | null
  reason: string
}

/** File changes an agent's history shows that could not be journaled, per turn (migration 023). */
export class NotCapturedRepository {
  private readonly insertStmt
  private readonly listStmt
  private readonly copyStmt
  private readonly deleteAfterStmt
  private readonly forCallStmt
  private readonly deleteForCallStmt
  private readonly toolCallIdsStmt

  constructor(db: Db) {
    this.insertStmt = db.prepare(
      `INSERT INTO not_captured_changes (session_id, turn, tool, path, reason, tool_call_id, source_file, source_offset)
       VALUES (@sessionRowId, @turn, @tool, @path, @reason, @toolCallId, @sourceFile, @sourceOffset)`
    )
    this.listStmt = db.prepare('SELECT turn, tool, path, reason FROM not_captured_changes WHERE session_id = ? ORDER BY turn, id')
    this.copyStmt = db.prepare(
      `INSERT INTO not_captured_changes (session_id, turn, tool, path, reason, tool_call_id, source_file, source_offset)
       SELECT @to, turn, tool, path, reason, tool_call_id, source_file, source_offset FROM not_captured_changes
       WHERE session_id = @from AND turn < @beforeTurn ORDER BY id`
    )
    this.deleteAfterStmt = db.prepare('DELETE FROM not_captured_changes WHERE session_id = ? AND turn > ?')
    this.forCallStmt = db.prepare('SELECT 1 FROM not_captured_changes WHERE session_id = ? AND tool_call_id = ? LIMIT 1')
    this.deleteForCallStmt = db.prepare('DELETE FROM not_captured_changes WHERE session_id = ? AND tool_call_id = ? AND reason = ?')
    this.toolCallIdsStmt = db.prepare('SELECT tool_call_id FROM not_captured_changes WHERE session_id = ? AND tool_call_id IS NOT NULL')
  }

  add(sessionRowId: number, change: NewNotCapturedChange): void {
    this.insertStmt.run({ sessionRowId, ...change })
  }

  list(sessionRowId: number): NotCapturedChange[] {
    return (this.listStmt.all(sessionRowId) as NotCapturedRow[]).map((row) => ({ turn: row.turn, tool: row.tool, path: row.path, reason: row.reason }))
  }

  /** Whether a tool call already has an entry (a call is accounted for once). */
  hasCall(sessionRowId: number, toolCallId: string): boolean {
    return this.forCallStmt.get(sessionRowId, toolCallId) !== undefined
  }

  /** Take back a call's entry of one reason (its result arrived after all: a live import's later chunk). */
  retractCall(sessionRowId: number, toolCallId: string, reason: string): boolean {
    return this.deleteForCallStmt.run(sessionRowId, toolCallId, reason).changes > 0
  }

  /** The tool call ids of a session's entries (the accounting check). */
  toolCallIds(sessionRowId: number): string[] {
    return (this.toolCallIdsStmt.all(sessionRowId) as { tool_call_id: string }[]).map((row) => row.tool_call_id)
  }

  /** A fork keeps the entries of the turns it copied, as it keeps their checkpoints. */
  copyBefore(fromRowId: number, toRowId: number, beforeTurn: number): void {
    this.copyStmt.run({ from: fromRowId, to: toRowId, beforeTurn })
  }

  /** Forget the entries of a session's turns after `turn` (an undone merge's turns). */
  deleteAfter(sessionRowId: number, turn: number): void {
    this.deleteAfterStmt.run(sessionRowId, turn)
  }
}
