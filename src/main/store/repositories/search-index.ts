import type { Db } from '../database'

/**
 * Messages indexed per step of a catch-up, one transaction each: a few tens of milliseconds (the
 * window's requests wait for a step, so larger steps keep them waiting longer), and a bounded
 * amount of text (FTS5 holds a transaction's terms in memory until it commits).
 */
const STEP_ROWS = 5_000
const STEP_BYTES = 4 * 1024 * 1024

/**
 * The full-text index of messages, which may lag behind while an import runs (`fts_backlog`,
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

  constructor(private readonly db: Db) {
    this.deferStmt = db.prepare('UPDATE fts_backlog SET from_id = coalesce(from_id, (SELECT coalesce(max(id), 0) + 1 FROM messages)) WHERE id = 1')
    this.fromStmt = db.prepare('SELECT from_id AS fromId FROM fts_backlog WHERE id = 1').pluck()
    this.boundaryStmt = db.prepare('SELECT id, octet_length(content) + coalesce(octet_length(tool_input), 0) AS bytes FROM messages WHERE id >= ? ORDER BY id')
    this.indexRangeStmt = db.prepare('INSERT INTO messages_fts (rowid, content, tool_input) SELECT id, content, tool_input FROM messages WHERE id >= ? AND id < ? ORDER BY id')
    this.indexRestStmt = db.prepare('INSERT INTO messages_fts (rowid, content, tool_input) SELECT id, content, tool_input FROM messages WHERE id >= ? ORDER BY id')
    this.setFromStmt = db.prepare('UPDATE fts_backlog SET from_id = ? WHERE id = 1')
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
    return this.db.transaction(() => {
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
    })()
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
