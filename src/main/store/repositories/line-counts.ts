import type { Db } from '../database'

export type LineCountOutcome = 'text' | 'binary' | 'too-many-changes'

/** What one pair of contents diffed to: exact counts for text, or why there are none. */
export interface StoredLineCounts {
  outcome: LineCountOutcome
  added: number
  removed: number
}

/** The `line_counts` table: the +N −M of each pair of contents (hashes; '' for an absent side) once diffed. */
export class LineCountRepository {
  private readonly getStmt
  private readonly putStmt

  constructor(db: Db) {
    this.getStmt = db.prepare('SELECT outcome, added, removed FROM line_counts WHERE before_hash = ? AND after_hash = ?')
    this.putStmt = db.prepare('INSERT INTO line_counts (before_hash, after_hash, outcome, added, removed) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING')
  }

  get(beforeHash: string | null, afterHash: string | null): StoredLineCounts | undefined {
    return this.getStmt.get(beforeHash ?? '', afterHash ?? '') as StoredLineCounts | undefined
  }

  put(beforeHash: string | null, afterHash: string | null, counts: StoredLineCounts): void {
    this.putStmt.run(beforeHash ?? '', afterHash ?? '', counts.outcome, counts.added, counts.removed)
  }
}
