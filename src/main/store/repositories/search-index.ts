import type { MessageRole, SearchHit, SnippetPart } from '../../../shared/contract'
import { writeTransaction, type Db } from '../database'
import { toFtsQuery } from '../fts-query'
import { sessionInView } from './workspace-view'

/**
 * Messages indexed per step of a catch-up, one transaction each: a few tens of milliseconds (the
 * window's requests wait for a step, so larger steps keep them waiting longer), and a bounded
 * amount of text (FTS5 holds a transaction's terms in memory until it commits).
 */
const STEP_ROWS = 5_000
const STEP_BYTES = 4 * 1024 * 1024

/**
 * Ranking every hit of a common word costs most of a second on a million messages (bm25 over
 * half of them); ranking the newest thousand costs tens of milliseconds and, in an agent's
 * history, the newest matches are the ones people look for. Paging stops there.
 */
export const MAX_RANKED_HITS = 1000

/**
 * A typed prefix is searched as the OR of its index terms up to this many (a query of a hundred
 * phrases costs a few milliseconds more to rank); past it, as FTS5's own prefix query.
 */
export const MAX_PREFIX_TERMS = 100

function searchSql(inWorkspace: boolean): string {
  // The workspace filter must act before the newest-N cut, so it joins inside the candidate
  // set, through the narrow (id, session_id) index rather than the wide messages rows.
  const scope = inWorkspace
    ? `JOIN messages scoped INDEXED BY messages_session_by_id ON scoped.id = messages_fts.rowid
       JOIN sessions scoped_session ON scoped_session.id = scoped.session_id AND ${sessionInView('scoped_session', '@workspaceId')}`
    : ''
  return `WITH candidates AS MATERIALIZED (
      SELECT messages_fts.rowid AS id, bm25(messages_fts) AS score,
        snippet(messages_fts, -1, char(1), char(2), '…', 16) AS snippet
      FROM messages_fts ${scope}
      WHERE messages_fts MATCH @match
      ORDER BY messages_fts.rowid DESC LIMIT ${MAX_RANKED_HITS})
    SELECT m.id, m.seq, m.turn, m.role, m.created_at, s.uid AS session_uid, s.title AS session_title,
      w.id AS workspace_id, w.name AS workspace_name, c.snippet
    FROM candidates c
    JOIN messages m ON m.id = c.id
    JOIN sessions s ON s.id = m.session_id
    JOIN workspaces w ON w.id = s.workspace_id
    ORDER BY c.score, c.id DESC LIMIT @limit OFFSET @offset`
}

/**
 * The full-text index of messages: searched across workspaces, and possibly lagging behind while an import runs (`fts_backlog`,
 * migration 012): messages from `from_id` on are indexed in bulk by `catchUp`, the rest by the
 * triggers as they are written. Every message is always in exactly one of the two ranges.
 */
export class SearchIndex {
  private readonly deferStmt
  private readonly fromStmt
  private readonly boundaryStmt
  private readonly indexRangeStmt
  private readonly indexRestStmt
  private readonly setFromStmt
  private readonly searchAllStmt
  private readonly searchWorkspaceStmt
  private readonly prefixTermsStmt

  constructor(private readonly db: Db) {
    // The index's own term list (fts5vocab reads it in place; nothing is stored): a connection's
    // temp table, so it needs no migration and no write to the database.
    db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.messages_fts_terms USING fts5vocab(main, messages_fts, row)')
    this.prefixTermsStmt = db.prepare(`SELECT term FROM temp.messages_fts_terms WHERE term >= ? AND term < ? LIMIT ${MAX_PREFIX_TERMS + 1}`).pluck()
    this.deferStmt = db.prepare('UPDATE fts_backlog SET from_id = coalesce(from_id, (SELECT coalesce(max(id), 0) + 1 FROM messages)) WHERE id = 1')
    this.fromStmt = db.prepare('SELECT from_id AS fromId FROM fts_backlog WHERE id = 1').pluck()
    this.boundaryStmt = db.prepare('SELECT id, octet_length(content) + coalesce(octet_length(tool_input), 0) AS bytes FROM messages WHERE id >= ? ORDER BY id')
    this.indexRangeStmt = db.prepare('INSERT INTO messages_fts (rowid, content, tool_input) SELECT id, content, tool_input FROM messages WHERE id >= ? AND id < ? ORDER BY id')
    this.indexRestStmt = db.prepare('INSERT INTO messages_fts (rowid, content, tool_input) SELECT id, content, tool_input FROM messages WHERE id >= ? ORDER BY id')
    this.setFromStmt = db.prepare('UPDATE fts_backlog SET from_id = ? WHERE id = 1')
    this.searchAllStmt = db.prepare(searchSql(false))
    this.searchWorkspaceStmt = db.prepare(searchSql(true))
  }

  /**
   * Full-text search: the newest MAX_RANKED_HITS matches, best first (bm25, the typed prefix's
   * terms each weighted as a word of its own). Offset paging, because rank order has no stable
   * key. The prefix's terms and the matches are read in one transaction, so they agree.
   */
  search(query: string, options: { workspaceId?: number | undefined; withSubfolders?: boolean; limit: number; offset: number }): SearchHit[] | null {
    return this.db.transaction(() => this.searchNow(query, options))()
  }

  private searchNow(query: string, options: { workspaceId?: number | undefined; withSubfolders?: boolean; limit: number; offset: number }): SearchHit[] | null {
    const match = toFtsQuery(query, (prefix) => this.prefixTerms(prefix))
    if (!match) return null
    const params = { match, limit: options.limit, offset: options.offset, workspaceId: options.workspaceId, ...(options.workspaceId === undefined ? {} : { subfolders: options.withSubfolders === true ? 1 : 0 }) }
    const statement = options.workspaceId === undefined ? this.searchAllStmt : this.searchWorkspaceStmt
    const rows = statement.all(params) as {
      id: number
      seq: number
      turn: number
      role: MessageRole
      created_at: number | null
      session_uid: string
      session_title: string
      workspace_id: number
      workspace_name: string
      snippet: string
    }[]
    return rows.map((row) => ({
      messageId: row.id,
      sessionId: row.session_uid,
      sessionTitle: row.session_title,
      workspaceId: row.workspace_id,
      workspaceName: row.workspace_name,
      seq: row.seq,
      turn: row.turn,
      role: row.role,
      createdAt: row.created_at,
      snippet: splitSnippet(row.snippet)
    }))
  }

  /** The index's terms starting with `prefix` (lower-case ASCII), or null past MAX_PREFIX_TERMS. */
  private prefixTerms(prefix: string): string[] | null {
    const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)
    const terms = this.prefixTermsStmt.all(prefix, end) as string[]
    return terms.length > MAX_PREFIX_TERMS ? null : terms
  }

  /** From now on, new messages wait for `catchUp` instead of being indexed one by one. */
  defer(): void {
    this.deferStmt.run()
  }

  /** Messages written since `defer` are not searchable yet. */
  get behind(): boolean {
    return this.fromStmt.get() != null
  }

  /**
   * Index up to `rows` of the waiting messages, in one transaction. True once none are left
   * (and new messages are indexed as they are written again).
   */
  catchUpStep(limits = { rows: STEP_ROWS, bytes: STEP_BYTES }): boolean {
    return writeTransaction(this.db, () => {
      const from = this.fromStmt.get() as number | null | undefined
      if (from == null) return true
      const upTo = this.stepEnd(from, limits)
      if (upTo === undefined) {
        this.indexRestStmt.run(from)
        this.setFromStmt.run(null)
        return true
      }
      this.indexRangeStmt.run(from, upTo)
      this.setFromStmt.run(upTo)
      return false
    })
  }

  /** The first message past one step from `from` (undefined: the step takes every message left). */
  private stepEnd(from: number, limits: { rows: number; bytes: number }): number | undefined {
    let rows = 0
    let bytes = 0
    for (const row of this.boundaryStmt.iterate(from) as Iterable<{ id: number; bytes: number }>) {
      if (rows > 0 && (rows >= limits.rows || bytes >= limits.bytes)) return row.id
      rows += 1
      bytes += row.bytes
    }
    return undefined
  }
}

/** FTS5 snippet() marks matches with \x01 … \x02; split into parts the renderer escapes itself. */
export function splitSnippet(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = []
  for (const [index, chunk] of snippet.split('\u0001').entries()) {
    if (index === 0) {
      if (chunk) parts.push({ text: chunk, match: false })
      continue
    }
    const [matched = '', rest = ''] = chunk.split('\u0002')
    if (matched) parts.push({ text: matched, match: true })
    if (rest) parts.push({ text: rest, match: false })
  }
  return parts
}
