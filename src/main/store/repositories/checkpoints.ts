import { keepsNoFileContent, type Checkpoint, type NotCapturedChange } from '../../../shared/contract'
import type { Db } from '../database'
import type { NotCapturedRepository } from './not-captured'

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
  private readonly recordedStmt
  private readonly sourceStmt

  constructor(
    db: Db,
    private readonly notCaptured: NotCapturedRepository
  ) {
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
    this.recordedStmt = db.prepare(
      `SELECT js.turn AS turn, count(*) AS n FROM journal_scopes js JOIN journal_entries e ON e.scope_id = js.id
       WHERE js.session_id = ? AND js.kind = 'turn' GROUP BY js.turn`
    )
    this.sourceStmt = db.prepare('SELECT source FROM sessions WHERE id = ?')
    this.copyStmt = db.prepare(
      `INSERT INTO checkpoints (session_id, turn, messages_before, journal_scope_id, invalidated, uncaptured_commands, created_at)
       SELECT @to, turn, messages_before, journal_scope_id, invalidated, uncaptured_commands, created_at FROM checkpoints
       WHERE session_id = @from AND turn < @beforeTurn`
    )
  }

  create(checkpoint: { sessionRowId: number; turn: number; messagesBefore: number; createdAt: number }): void {
    this.insertStmt.run(checkpoint)
  }

  /**
   * Write a checkpoint back exactly as it was exported (an imported session), with its
   * not-captured changes (absent in documents exported before migration 023).
   */
  restore(sessionRowId: number, checkpoint: Omit<Checkpoint, 'notCaptured' | 'coverage'> & { notCaptured?: NotCapturedChange[] | undefined }): void {
    const { turn, messagesBefore, invalidated, uncapturedCommands, createdAt } = checkpoint
    this.restoreStmt.run({ sessionRowId, turn, messagesBefore, uncapturedCommands, createdAt, invalidated: invalidated ? 1 : 0 })
    for (const change of checkpoint.notCaptured ?? []) {
      this.notCaptured.add(sessionRowId, { ...change, turn, toolCallId: null, sourceFile: null, sourceOffset: null })
    }
  }

  /** Forget the checkpoints of a session's turns after `turn` (an undone merge's turns). */
  deleteAfter(sessionRowId: number, turn: number): void {
    this.deleteAfterStmt.run(sessionRowId, turn)
    this.notCaptured.deleteAfter(sessionRowId, turn)
  }

  /** A session's checkpoints, each with its not-captured changes and its rewind coverage. */
  list(sessionRowId: number): Checkpoint[] {
    const rows = this.listStmt.all(sessionRowId) as CheckpointRow[]
    if (rows.length === 0) return []
    const recorded = new Map((this.recordedStmt.all(sessionRowId) as { turn: number; n: number }[]).map((row) => [row.turn, row.n]))
    const notCaptured = new Map<number, NotCapturedChange[]>()
    for (const change of this.notCaptured.list(sessionRowId)) notCaptured.set(change.turn, [...(notCaptured.get(change.turn) ?? []), change])
    const source = (this.sourceStmt.get(sessionRowId) as { source: string } | undefined)?.source ?? ''
    const agentKeepsNoContent = keepsNoFileContent(source)
    return rows.map((row) => {
      const changes = notCaptured.get(row.turn) ?? []
      return {
        turn: row.turn,
        messagesBefore: row.messages_before,
        invalidated: row.invalidated === 1,
        uncapturedCommands: row.uncaptured_commands,
        notCaptured: changes,
        coverage: { recorded: recorded.get(row.turn) ?? 0, notCaptured: changes.length, uncapturedCommands: row.uncaptured_commands, agentKeepsNoContent },
        createdAt: row.created_at
      }
    })
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
    this.notCaptured.copyBefore(fromRowId, toRowId, beforeTurn)
  }
}
