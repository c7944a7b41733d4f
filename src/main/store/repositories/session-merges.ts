import type { Db } from '../database'
import type { SessionProgress } from './sessions'

/** A merge of a branch into a session, as recorded (see migrations 004 and 014). */
export interface MergeRecord {
  id: number
  mode: 'append' | 'replace'
  /** Where the merge's marker and messages start in the target's display transcript. */
  firstSeq: number
  /** The marker and the messages it appended. */
  messageCount: number
  /** The branch's last display seq the merge took (null: the branch had no messages). */
  throughSeq: number | null
  createdAt: number
  /** What undoing it writes back; null: it cannot be undone (see migration 015). */
  undoState: MergeUndoState | null
}

/** The target session and the branch as they were before a merge (see migration 015). */
export interface MergeUndoState {
  target: SessionProgress
  /** The target's last turn with a checkpoint: the merge's turns (and one it closed) come after. */
  lastCheckpointTurn: number
  /** A merged compaction summary moves the target's context start; the undo moves it back. */
  contextStartSeq: number
  branchStatus: 'active' | 'closed'
}

/** The `session_merges` table: branches merged into sessions, and what undoing each merge needs. */
export class SessionMergeRepository {
  private readonly addStmt
  private readonly removeBetweenStmt
  private readonly lastStmt
  private readonly removeStmt
  private readonly undoStateStmt
  private readonly mergeContextStmt
  private readonly recordUndoneStmt
  private readonly lastUndoneStmt

  constructor(db: Db) {
    // Without a through seq (a source's inferred merge) the merge took the branch as it is now.
    this.addStmt = db.prepare(
      `INSERT INTO session_merges (branch_id, into_id, mode, first_seq, message_count, created_at, through_seq)
       VALUES (@branchRowId, @intoRowId, @mode, @firstSeq, @messageCount, @createdAt,
         coalesce(@throughSeq, (SELECT max(seq) FROM messages WHERE session_id = @branchRowId)))`
    )
    this.removeBetweenStmt = db.prepare('DELETE FROM session_merges WHERE branch_id = ? AND into_id = ?')
    this.lastStmt = db.prepare(
      `SELECT id, mode, first_seq AS firstSeq, message_count AS messageCount, through_seq AS throughSeq, created_at AS createdAt, undo_state AS undoState
       FROM session_merges WHERE branch_id = ? AND into_id = ? ORDER BY id DESC LIMIT 1`
    )
    this.removeStmt = db.prepare('DELETE FROM session_merges WHERE id = ?')
    this.undoStateStmt = db.prepare('UPDATE session_merges SET undo_state = ? WHERE id = ?')
    this.mergeContextStmt = db.prepare('INSERT INTO session_merge_context (merge_id, message_id) VALUES (?, ?)')
    this.recordUndoneStmt = db.prepare(
      'INSERT INTO session_undone_merges (branch_id, into_id, merged_at, undone_at, message_count) VALUES (@branchRowId, @intoRowId, @mergedAt, @undoneAt, @messageCount)'
    )
    this.lastUndoneStmt = db.prepare(
      'SELECT merged_at AS mergedAt, undone_at AS undoneAt, message_count AS messageCount FROM session_undone_merges WHERE branch_id = ? AND into_id = ? ORDER BY id DESC LIMIT 1'
    )
  }

  /** Record that a branch was merged into a session: its messages from `firstSeq` on, `messageCount` of them. */
  add(merge: { branchRowId: number; intoRowId: number; mode: 'append' | 'replace'; firstSeq: number; messageCount: number; createdAt: number; throughSeq?: number | null }): number {
    return Number(this.addStmt.run({ throughSeq: null, ...merge }).lastInsertRowid)
  }

  /** The newest merge of a branch into a session, if any. */
  last(branchRowId: number, intoRowId: number): MergeRecord | undefined {
    const row = this.lastStmt.get(branchRowId, intoRowId) as (Omit<MergeRecord, 'undoState'> & { undoState: string | null }) | undefined
    return row && { ...row, undoState: row.undoState === null ? null : (JSON.parse(row.undoState) as MergeUndoState) }
  }

  /** Keep what undoing a merge needs: the state before it, and the messages it took out of context. */
  saveUndo(mergeId: number, state: MergeUndoState, contextMessageIds: number[]): void {
    this.undoStateStmt.run(JSON.stringify(state), mergeId)
    for (const messageId of contextMessageIds) this.mergeContextStmt.run(mergeId, messageId)
  }

  /** Forget one merge (it was undone). */
  remove(mergeId: number): void {
    this.removeStmt.run(mergeId)
  }

  /** Note that a merge of the branch into the session was undone (migration 022). */
  recordUndone(undone: { branchRowId: number; intoRowId: number; mergedAt: number; undoneAt: number; messageCount: number }): void {
    this.recordUndoneStmt.run(undone)
  }

  /** The latest undone merge of a branch into a session, if any. */
  lastUndone(branchRowId: number, intoRowId: number): { mergedAt: number; undoneAt: number; messageCount: number } | undefined {
    return this.lastUndoneStmt.get(branchRowId, intoRowId) as { mergedAt: number; undoneAt: number; messageCount: number } | undefined
  }

  /** Forget the merges of a branch into a session (a source's store read again records them afresh). */
  removeBetween(branchRowId: number, intoRowId: number): void {
    this.removeBetweenStmt.run(branchRowId, intoRowId)
  }

  /**
   * Newest activity first, keyset-paged on (updated_at, id). A text query matches the title
   * or any message of the session (full-text).
   */
}
