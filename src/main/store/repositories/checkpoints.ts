import type { Checkpoint } from '../../../shared/contract'
import type { Db } from '../database'

interface CheckpointRow {
  turn: number
  messages_before: number
  invalidated: number
  uncaptured_commands: number
  created_at: number
}

/** Chat checkpoints: one per closed turn of a session. */
export class CheckpointRepository {
  private readonly insertStmt
  private readonly listStmt
  private readonly copyStmt
  private readonly uncapturedStmt
  private readonly restoreStmt
  private readonly invalidateStmt
  private readonly deleteAfterStmt

  constructor(db: Db) {
    this.insertStmt = db.prepare(
      `INSERT INTO checkpoints (session_id, turn, messages_before, created_at) VALUES (@sessionRowId, @turn, @messagesBefore, @createdAt)
       ON CONFLICT (session_id, turn) DO NOTHING`
    )
    this.restoreStmt = db.prepare(
      `INSERT INTO checkpoints (session_id, turn, messages_before, invalidated, uncaptured_commands, created_at)
       VALUES (@sessionRowId, @turn, @messagesBefore, @invalidated, @uncapturedCommands, @createdAt)`
    )
    this.deleteAfterStmt = db.prepare('DELETE FROM checkpoints WHERE session_id = ? AND turn > ?')
    this.invalidateStmt = db.prepare('UPDATE checkpoints SET invalidated = 1 WHERE session_id = ? AND turn = ? AND invalidated = 0')
    this.uncapturedStmt = db.prepare('UPDATE checkpoints SET uncaptured_commands = uncaptured_commands + ? WHERE session_id = ? AND turn = ?')
    this.listStmt = db.prepare('SELECT turn, messages_before, invalidated, uncaptured_commands, created_at FROM checkpoints WHERE session_id = ? ORDER BY turn')
    this.copyStmt = db.prepare(
      `INSERT INTO checkpoints (session_id, turn, messages_before, journal_scope_id, invalidated, uncaptured_commands, created_at)
       SELECT @to, turn, messages_before, journal_scope_id, invalidated, uncaptured_commands, created_at FROM checkpoints
       WHERE session_id = @from AND turn < @beforeTurn`
    )
  }

  create(checkpoint: { sessionRowId: number; turn: number; messagesBefore: number; createdAt: number }): void {
    this.insertStmt.run(checkpoint)
  }

  /** Write a checkpoint back exactly as it was exported (an imported session). */
  restore(sessionRowId: number, checkpoint: Checkpoint): void {
    this.restoreStmt.run({ sessionRowId, ...checkpoint, invalidated: checkpoint.invalidated ? 1 : 0 })
  }

  /** Forget the checkpoints of a session's turns after `turn` (an undone merge's turns). */
  deleteAfter(sessionRowId: number, turn: number): void {
    this.deleteAfterStmt.run(sessionRowId, turn)
  }

  list(sessionRowId: number): Checkpoint[] {
    return (this.listStmt.all(sessionRowId) as CheckpointRow[]).map((row) => ({
      turn: row.turn,
      messagesBefore: row.messages_before,
      invalidated: row.invalidated === 1,
      uncapturedCommands: row.uncaptured_commands,
      createdAt: row.created_at
    }))
  }

  /** Count shell commands whose changes went unseen; false when the turn has no checkpoint yet. */
  /**
   * Mark a turn's checkpoint as one that can no longer be restored (its saved snapshots are gone,
   * or the agent itself rolled the turn back). Never cleared. True if this changed the flag.
   */
  invalidate(sessionRowId: number, turn: number): boolean {
    return this.invalidateStmt.run(sessionRowId, turn).changes > 0
  }

  addUncaptured(sessionRowId: number, turn: number, commands: number): boolean {
    return this.uncapturedStmt.run(commands, sessionRowId, turn).changes > 0
  }

  /** A fork keeps the checkpoints of the turns it copied. */
  copyBefore(fromRowId: number, toRowId: number, beforeTurn: number): void {
    this.copyStmt.run({ from: fromRowId, to: toRowId, beforeTurn })
  }
}
