import type { Db } from '../database'

/**
 * The session files "Continue in Claude Code / Codex" wrote, by the agent's id of the new session
 * (migration 024): the importer links such a session to the one it was written from (R61).
 */
export class AgentContinuationRepository {
  private readonly recordStmt
  private readonly ofStmt

  constructor(db: Db) {
    this.recordStmt = db.prepare(
      `INSERT INTO agent_continuations (source, agent_session_id, session_id, turn, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (source, agent_session_id) DO UPDATE SET session_id = excluded.session_id, turn = excluded.turn, created_at = excluded.created_at`
    )
    this.ofStmt = db.prepare('SELECT session_id FROM agent_continuations WHERE source = ? AND agent_session_id = ?').pluck()
  }

  /** `agentSessionId`'s file, written for `source`, continues the session `sessionRowId` from the end of `turn`. */
  record(source: string, agentSessionId: string, sessionRowId: number, turn: number, now = Date.now()): void {
    this.recordStmt.run(source, agentSessionId, sessionRowId, turn, now)
  }

  /** The row id of the session the agent's session continues, if Retrace wrote it as a continuation. */
  continuedFrom(source: string, agentSessionId: string): number | undefined {
    return this.ofStmt.get(source, agentSessionId) as number | undefined
  }
}
