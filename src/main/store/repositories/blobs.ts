import type { Db } from '../database'
import { lookUpInBatches } from '../batched-lookup'

/** A `blobs` row: how one snapshot's content is stored (inline in SQLite, or a gzip file). */
export interface BlobRow {
  hash: string
  size: number
  storage: 'inline' | 'file'
  encoding: 'raw' | 'deflate'
  /** The deflate dictionary the inline data was compressed with, if any. */
  dictionaryId: number | null
  /** Inline content as stored; null for a file blob. */
  data: Buffer | null
}

export type NewBlobRow = BlobRow & { createdAt: number }

/** A blob no row refers to, deleted by `collectUnreferenced`: the caller removes its file. */
export interface CollectedBlob {
  hash: string
  size: number
  storage: 'inline' | 'file'
}

const ROW_COLUMNS = 'hash, size, storage, encoding, dictionary_id AS dictionaryId, data'

/**
 * The `blobs` table and the `deflate_dictionaries` that inline rows may be compressed with.
 * Content is verified by the blob store (journal/blob-store.ts) when read; this only finds rows.
 */
export class BlobRepository {
  private readonly hasStmt
  private readonly rowStmt
  private readonly sizeStmt
  private readonly storageOfStmt
  private readonly rowsOfStmt
  private readonly insertStmt
  private readonly dictionaryHashStmt
  private readonly dictionaryOfWorkspaceStmt
  private readonly insertDictionaryStmt
  private readonly dictionaryIdStmt
  private readonly setWorkspaceDictionaryStmt
  /** SQLite's page size: the blob store orders inline rows to fill pages (see blob-pages.ts). */
  readonly pageSize: number

  constructor(private readonly db: Db) {
    this.hasStmt = db.prepare('SELECT 1 FROM blobs WHERE hash = ?').pluck()
    this.rowStmt = db.prepare(`SELECT ${ROW_COLUMNS} FROM blobs WHERE hash = ?`)
    // Without `data`: an inline blob's bytes are most of its row.
    this.sizeStmt = db.prepare('SELECT size FROM blobs WHERE hash = ?').pluck()
    this.storageOfStmt = db.prepare('SELECT hash, storage FROM blobs WHERE hash IN (SELECT value FROM json_each(?))')
    this.rowsOfStmt = db.prepare(`SELECT ${ROW_COLUMNS} FROM blobs WHERE hash IN (SELECT value FROM json_each(?))`)
    this.insertStmt = db.prepare(
      'INSERT OR IGNORE INTO blobs (hash, size, storage, encoding, data, created_at, dictionary_id) VALUES (@hash, @size, @storage, @encoding, @data, @createdAt, @dictionaryId)'
    )
    this.dictionaryHashStmt = db.prepare('SELECT hash FROM deflate_dictionaries WHERE id = ?').pluck()
    this.dictionaryOfWorkspaceStmt = db.prepare('SELECT deflate_dictionary_id FROM workspaces WHERE id = ?').pluck()
    this.insertDictionaryStmt = db.prepare('INSERT OR IGNORE INTO deflate_dictionaries (hash) VALUES (?)')
    this.dictionaryIdStmt = db.prepare('SELECT id FROM deflate_dictionaries WHERE hash = ?').pluck()
    this.setWorkspaceDictionaryStmt = db.prepare('UPDATE workspaces SET deflate_dictionary_id = ? WHERE id = ?')
    this.pageSize = db.pragma('page_size', { simple: true }) as number
  }

  has(hash: string): boolean {
    return this.hasStmt.get(hash) !== undefined
  }

  row(hash: string): BlobRow | undefined {
    return this.rowStmt.get(hash) as BlobRow | undefined
  }

  size(hash: string): number | null {
    return (this.sizeStmt.get(hash) as number | undefined) ?? null
  }

  /** How each of `hashes` that has a row is stored, looked up together (see batched-lookup.ts). */
  storageOf(hashes: string[]): Map<string, 'inline' | 'file'> {
    const rows = lookUpInBatches(hashes, (json) => this.storageOfStmt.all(json) as { hash: string; storage: 'inline' | 'file' }[])
    return new Map(rows.map((row) => [row.hash, row.storage]))
  }

  rowsOf(hashes: string[]): BlobRow[] {
    return lookUpInBatches(hashes, (json) => this.rowsOfStmt.all(json) as BlobRow[])
  }

  /** Insert a blob's row (no-op if the blob is already there: content-addressed, it is the same). */
  insert(row: NewBlobRow): void {
    this.insertStmt.run(row)
  }

  /** The blob holding a deflate dictionary's bytes, or undefined if the id is not registered. */
  dictionaryHash(id: number): string | undefined {
    return this.dictionaryHashStmt.get(id) as string | undefined
  }

  /** The dictionary a workspace deflates with, if it has one. */
  dictionaryOfWorkspace(workspaceId: number): number | null {
    return (this.dictionaryOfWorkspaceStmt.get(workspaceId) as number | null | undefined) ?? null
  }

  /** Register the dictionary stored as blob `hash` (once) and make it the workspace's; returns its id. */
  adoptDictionary(workspaceId: number, hash: string): number {
    this.insertDictionaryStmt.run(hash)
    const id = this.dictionaryIdStmt.get(hash) as number
    this.setWorkspaceDictionaryStmt.run(id, workspaceId)
    return id
  }

  /**
   * Delete the rows of blobs older than `cutoff` that no journal entry, no scanned file state,
   * no recovery conflict (the user's work a recovery saved, or the version from before
   * the rewind listed beside it) and no dictionary refers to, and
   * the dictionaries neither a row nor a workspace uses any more. Returns the blobs deleted;
   * the caller removes their files.
   *
   * One write transaction finds and deletes them, so no reference can be added in between.
   * Referrers are found in one pass each (uncorrelated subqueries: SQLite builds a temporary
   * index once), not looked up per blob: journal entries keep no index on their hashes, as
   * every capture and rewind would pay for it (migration 008). For the same reason foreign
   * keys are not enforced during this delete (SQLite would scan the entries for each blob
   * deleted); the query has just proven each deleted blob unreferenced.
   */
  collectUnreferenced(cutoff: number): CollectedBlob[] {
    const db = this.db
    db.pragma('foreign_keys = OFF') // a no-op inside an outer transaction: then enforced, only slower
    try {
      return db.transaction(() => {
        db.prepare(
          `DELETE FROM deflate_dictionaries WHERE
             id NOT IN (SELECT dictionary_id FROM blobs WHERE dictionary_id IS NOT NULL) AND
             id NOT IN (SELECT deflate_dictionary_id FROM workspaces WHERE deflate_dictionary_id IS NOT NULL)`
        ).run()
        const found = db
          .prepare(
            `SELECT hash, size, storage FROM blobs WHERE created_at < @cutoff AND
               hash NOT IN (SELECT hash_before FROM journal_entries WHERE hash_before IS NOT NULL) AND
               hash NOT IN (SELECT hash_after FROM journal_entries WHERE hash_after IS NOT NULL) AND
               hash NOT IN (SELECT hash FROM file_states) AND
               hash NOT IN (SELECT hash_found FROM rewind_recovery_conflicts WHERE hash_found IS NOT NULL) AND
               hash NOT IN (SELECT hash_before FROM rewind_recovery_conflicts WHERE hash_before IS NOT NULL) AND
               hash NOT IN (SELECT hash FROM deflate_dictionaries)`
          )
          .all({ cutoff }) as CollectedBlob[]
        const remove = db.prepare('DELETE FROM blobs WHERE hash = ?')
        for (const blob of found) remove.run(blob.hash)
        return found
      }).immediate()
    } finally {
      db.pragma('foreign_keys = ON')
    }
  }
}
