import { writeTransaction, type Db } from '../database'

/**
 * Folds a workspace's sessions' copies out of the workspaces of the folders enclosing it (R60):
 * the runtime side of migration 024, for a copy the migration could not fold because the
 * subfolder had no workspace yet (an enclosing folder's import stored it there, before R59). Run
 * once a workspace's import has brought in its own copy. The same rules as the migration: the
 * copy under the deeper folder stays when it has at least as many messages and the other copy
 * took part in no merge; the rewinds made from the other copy and the sessions made from it in
 * Retrace pass to it; the other copy's turn scopes stay in its folder's journal without a session.
 */
export class SessionFoldRepository {
  private readonly hasEnclosingStmt
  private readonly pairsStmt
  private readonly moves

  constructor(private readonly db: Db) {
    this.hasEnclosingStmt = db
      .prepare(
        `SELECT 1 FROM workspaces a JOIN workspaces w ON w.id = ?
         WHERE a.id <> w.id AND substr(w.path, 1, length(a.path) + 1) IN (a.path || '/', a.path || '\\') LIMIT 1`
      )
      .pluck()
    this.pairsStmt = db.prepare(
      `SELECT d.id AS dropId, k.id AS keepId, a.id AS workspaceId
       FROM workspaces w
       JOIN workspaces a ON a.id <> w.id AND substr(w.path, 1, length(a.path) + 1) IN (a.path || '/', a.path || '\\')
       JOIN sessions k ON k.workspace_id = w.id AND k.source_session_id IS NOT NULL
       JOIN sessions d ON d.workspace_id = a.id AND d.source = k.source AND d.source_session_id = k.source_session_id
       WHERE w.id = ? AND k.message_count >= d.message_count
         AND NOT EXISTS (SELECT 1 FROM session_merges m WHERE m.into_id = d.id OR m.branch_id = d.id)
         AND NOT EXISTS (SELECT 1 FROM session_undone_merges u WHERE u.into_id = d.id OR u.branch_id = d.id)`
    )
    this.moves = [
      'UPDATE sessions SET parent_id = @keep WHERE parent_id = @drop',
      'UPDATE sessions SET predecessor_id = @keep WHERE predecessor_id = @drop',
      'UPDATE rewinds SET session_id = @keep WHERE session_id = @drop',
      "UPDATE journal_scopes SET session_id = @keep WHERE kind = 'rewind' AND session_id = @drop",
      'UPDATE agent_continuations SET session_id = @keep WHERE session_id = @drop',
      'DELETE FROM sessions WHERE id = @drop'
    ].map((sql) => db.prepare(sql))
  }

  /** Fold the copies of `workspaceId`'s sessions that enclosing folders' workspaces hold; the workspaces they were in (empty: none). */
  foldEnclosingCopies(workspaceId: number): number[] {
    if (this.hasEnclosingStmt.get(workspaceId) === undefined) return []
    return writeTransaction(this.db, () => {
      const pairs = this.pairsStmt.all(workspaceId) as { dropId: number; keepId: number; workspaceId: number }[]
      for (const { dropId, keepId } of pairs) for (const move of this.moves) move.run({ drop: dropId, keep: keepId })
      return [...new Set(pairs.map((pair) => pair.workspaceId))]
    })
  }
}
