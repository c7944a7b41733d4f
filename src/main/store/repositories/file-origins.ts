import type { Db } from '../database'
import type { RelPath } from '../../fs/paths'
import { toEntry, type EntryRow, type JournalEntry } from './journal'

/** Who a journal entry's change belongs to: a session's turn (with its prompt), or a rewind. */
export interface EntryWriter {
  scopeKind: 'turn' | 'rewind'
  sessionId: string | null
  sessionTitle: string | null
  source: string | null
  turn: number | null
  /** The turn's first user prompt, cut to PROMPT_EXCERPT_CHARS. */
  prompt: string | null
  /** When the turn ended (its checkpoint), else began (its prompt); null for a rewind. */
  turnAt: number | null
}

/** One change to a path, with everything blame needs to say who made it. */
export type OriginEntry = JournalEntry & { writer: EntryWriter }

export const PROMPT_EXCERPT_CHARS = 300

type Row = EntryRow & {
  scope_kind: 'turn' | 'rewind'
  turn: number | null
  session_uid: string | null
  session_title: string | null
  source: string | null
  turn_ended_at: number | null
  prompt: string | null
  prompt_at: number | null
}

/**
 * The journal read for blame: every change to one path in a workspace, with its session, turn,
 * source, the turn's prompt and time, in one query. The prompt is found by the turn's
 * checkpoint (its `messages_before` is the prompt's seq, an indexed lookup); a turn still open
 * has no checkpoint, and its prompt is looked up by turn.
 */
export class FileOriginRepository {
  private readonly historyStmt

  constructor(db: Db) {
    this.historyStmt = db.prepare(
      `SELECT e.*, s.kind AS scope_kind, s.turn AS turn, ss.uid AS session_uid, ss.title AS session_title, ss.source AS source,
         c.created_at AS turn_ended_at, substr(p.content, 1, ${PROMPT_EXCERPT_CHARS}) AS prompt, p.created_at AS prompt_at
       FROM journal_scopes s
       JOIN journal_entries e ON e.scope_id = s.id
       LEFT JOIN sessions ss ON ss.id = s.session_id
       LEFT JOIN checkpoints c ON c.session_id = s.session_id AND c.turn = s.turn
       LEFT JOIN messages p ON p.session_id = s.session_id AND p.seq = coalesce(c.messages_before,
         (SELECT min(m.seq) FROM messages m WHERE m.session_id = s.session_id AND m.turn = s.turn AND m.role = 'user'))
       WHERE s.workspace_id = ? AND (e.path = ? OR e.from_path = ?)
       ORDER BY e.id`
    )
  }

  /** Every change to `path` (or a rename from it) in the workspace, in the order recorded. */
  entriesOf(workspaceId: number, path: RelPath): OriginEntry[] {
    return (this.historyStmt.all(workspaceId, path, path) as Row[]).map((row) => ({
      ...toEntry(row),
      writer: {
        scopeKind: row.scope_kind,
        sessionId: row.session_uid,
        sessionTitle: row.session_title,
        source: row.source,
        turn: row.turn,
        prompt: row.prompt,
        turnAt: row.turn_ended_at ?? row.prompt_at
      }
    }))
  }
}

