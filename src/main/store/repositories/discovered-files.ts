import { writeTransaction, type Db } from '../database'

/** `discovered_files` (migration 012): what discovery found in a file, by the file's identity. */
export class DiscoveredFileRepository {
  private readonly allStmt
  private readonly upsertStmt

  constructor(private readonly db: Db) {
    this.allStmt = db.prepare('SELECT path, signature, facts FROM discovered_files')
    this.upsertStmt = db.prepare(
      'INSERT INTO discovered_files (path, signature, facts) VALUES (?, ?, ?) ON CONFLICT (path) DO UPDATE SET signature = excluded.signature, facts = excluded.facts'
    )
  }

  /** Every file discovered so far: path → its signature and facts (JSON). */
  all(): Map<string, { signature: string; facts: string }> {
    const rows = this.allStmt.all() as { path: string; signature: string; facts: string }[]
    return new Map(rows.map((row) => [row.path, { signature: row.signature, facts: row.facts }]))
  }

  save(entries: Iterable<{ path: string; signature: string; facts: string }>): void {
    writeTransaction(this.db, () => {
      for (const entry of entries) this.upsertStmt.run(entry.path, entry.signature, entry.facts)
    })
  }
}
