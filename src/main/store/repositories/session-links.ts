import type { Db } from '../database'
import { REDEPTH_DESCENDANTS } from './sessions'
import { sessionInView } from './workspace-view'

/** A Claude Code warm-up's only prompt: the word Claude Code sends to prime the prompt cache. */
export const WARMUP_PROMPT = 'Warmup'

// A warm-up agent answers Claude Code's start-up call: it holds messages, made no tool call,
// and was given no prompt but the warm-up word (2.0.42 and 2.0.44 wrote the answer alone).
const IS_WARMUP_AGENT = `s.kind = 'sub-agent' AND s.message_count > 0
  AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id AND m.role = 'tool_call')
  AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id AND m.role = 'user' AND m.content <> '${WARMUP_PROMPT}')`

// (A session without a source id makes the LIKE below NULL, hence the coalesce above.)
// Claude Code's /compact runs as an agent of its own (`agent-acompact-<hex>.jsonl`, 2.1.x): a
// summary request and the summary, which the session holds as its compaction already. Kept
// (its tokens were spent) and hidden with the warm-ups.
const IS_COMPACTION_AGENT = `s.kind = 'sub-agent' AND s.source = 'claude-code' AND s.source_session_id LIKE '%/agent-acompact-%'`

// The Codex VS Code extension and Desktop app title each thread by running a rollout of its own
// (`source: "exec"`) whose only prompt is the title generator's: no work of the user's.
export const CODEX_TITLE_PROMPT = 'You are a helpful assistant. You will be presented with a user prompt, and your job is to provide a short title for a task'
const IS_CODEX_TITLE_RUN = `s.source = 'codex' AND s.message_count > 0
  AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id AND m.role = 'tool_call')
  AND EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id AND m.role = 'user')
  AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id AND m.role = 'user' AND substr(m.content, 1, ${CODEX_TITLE_PROMPT.length}) <> '${CODEX_TITLE_PROMPT}')`

// A session that never got a message and whose only sub-agents are warm-ups: Claude Code was
// started and left before a prompt (2.0.x wrote such a file empty, or not at all).
const IS_WARMUP_SHELL = `s.message_count = 0
  AND EXISTS (SELECT 1 FROM sessions c WHERE c.parent_id = s.id)
  AND NOT EXISTS (SELECT 1 FROM sessions c WHERE c.parent_id = s.id AND c.warmup = 0)`

/**
 * How imported sessions find their place: a sub-agent adopted by the session it names once
 * that one exists, the warm-up flag, and the session holding a message another file names.
 */
export class SessionLinkRepository {
  private readonly adoptStmt
  private readonly redepthStmt
  private readonly refreshStmt
  private readonly countWarmupsStmt
  private readonly countWarmupsOfSourceStmt
  private readonly holdingStmt

  constructor(db: Db) {
    this.adoptStmt = db.prepare(
      `UPDATE sessions SET parent_id = @parentRowId, depth = @depth
       WHERE workspace_id = @workspaceId AND source = @source AND parent_source_id = @parentSourceId
         AND parent_id IS NULL AND id <> @parentRowId`
    )
    this.redepthStmt = db.prepare(REDEPTH_DESCENDANTS)
    this.refreshStmt = db.prepare(`UPDATE sessions AS s SET warmup = coalesce((${IS_WARMUP_AGENT}) OR (${IS_COMPACTION_AGENT}) OR (${IS_CODEX_TITLE_RUN}) OR (${IS_WARMUP_SHELL}), 0) WHERE s.id = ?`)
    this.countWarmupsStmt = db.prepare(`SELECT count(*) AS n FROM sessions s WHERE ${sessionInView('s', '@workspaceId')} AND s.warmup = 1`)
    this.countWarmupsOfSourceStmt = db.prepare(`SELECT count(*) AS n FROM sessions s WHERE ${sessionInView('s', '@workspaceId')} AND s.source = @source AND s.warmup = 1`)
    this.holdingStmt = db.prepare(
      `SELECT s.uid FROM sessions s
       WHERE s.workspace_id = ? AND s.source = ?
         AND EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id AND m.source_uid = ?)
       ORDER BY s.created_at, s.id LIMIT 1`
    )
  }

  /**
   * Hang below a session just made every session of its workspace and source that names it as
   * parent and has none yet (sub-agents imported before it). Returns how many were adopted.
   */
  adoptOrphans(parent: { rowId: number; workspaceId: number; source: string; sourceSessionId: string; depth: number }): number {
    const adopted = this.adoptStmt.run({ parentRowId: parent.rowId, depth: parent.depth + 1, workspaceId: parent.workspaceId, source: parent.source, parentSourceId: parent.sourceSessionId }).changes
    // Their own sub-agents (an agent a sub-agent started) move down with them.
    if (adopted > 0) this.redepthStmt.run({ rowId: parent.rowId })
    return adopted
  }

  /** Work out again whether a session is a warm-up (after its messages or children changed). */
  refreshWarmup(rowId: number): void {
    this.refreshStmt.run(rowId)
  }

  countWarmups(workspaceId: number, source?: string, withSubfolders = false): number {
    const subfolders = withSubfolders ? 1 : 0
    const row = (source === undefined ? this.countWarmupsStmt.get({ workspaceId, subfolders }) : this.countWarmupsOfSourceStmt.get({ workspaceId, source, subfolders })) as { n: number }
    return row.n
  }

  /** The session of a workspace and source holding the message the source calls `sourceUid`. */
  sessionHolding(workspaceId: number, source: string, sourceUid: string): string | undefined {
    return (this.holdingStmt.get(workspaceId, source, sourceUid) as { uid: string } | undefined)?.uid
  }
}
