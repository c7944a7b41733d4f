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
  private readonly elsewhereStmt
  private readonly retractCopiesStmt

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
    const sameSourceElsewhere = `session_id != @exceptRowId AND session_id IN (SELECT id FROM sessions WHERE workspace_id = @workspaceId AND source = @source)`
    this.elsewhereStmt = db.prepare(
      `SELECT 1 FROM not_captured_changes WHERE tool_call_id = @toolCallId AND ${sameSourceElsewhere}
       UNION ALL SELECT 1 FROM journal_entries e JOIN journal_scopes s ON s.id = e.scope_id
       WHERE e.tool_call_id = @toolCallId AND s.session_id != @exceptRowId AND s.session_id IN (SELECT id FROM sessions WHERE workspace_id = @workspaceId AND source = @source)
       LIMIT 1`
    )
    this.retractCopiesStmt = db.prepare(
      `DELETE FROM not_captured_changes WHERE tool_call_id = @toolCallId AND reason IN (@reasonA, @reasonB) AND ${sameSourceElsewhere}
       RETURNING source_file, source_offset`
    )
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

  /**
   * Whether another session of the same workspace and source accounts for the call (an entry or
   * a journaled change): the source repeated the call there (a branch's copied prefix, a trunk
   * ending with a merged branch), so it is that session's.
   */
  accountedElsewhere(call: { workspaceId: number; source: string; exceptRowId: number; toolCallId: string }): boolean {
    return this.elsewhereStmt.get(call) !== undefined
  }

  /** Take back the provisional entries (`reasons`) other sessions of the source hold for a call now accounted for. */
  retractCopies(call: { workspaceId: number; source: string; exceptRowId: number; toolCallId: string }, reasons: [string, string]): { file: string | null; offset: number | null }[] {
    return (this.retractCopiesStmt.all({ ...call, reasonA: reasons[0], reasonB: reasons[1] }) as { source_file: string | null; source_offset: number | null }[]).map((row) => ({ file: row.source_file, offset: row.source_offset }))
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
