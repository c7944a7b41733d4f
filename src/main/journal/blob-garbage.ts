import { rmSync } from 'node:fs'
import type { Db } from '../store/database'

/**
 * Delete blobs no journal entry, no scanned file state and no recovery conflict (the user's
 * work a recovery saved) refers to. Only blobs older than
 * `graceMs`: a scan or capture running in another process stores content before it records
 * the reference, and must not lose it in between.
 *
 * One write transaction finds and deletes them, so no reference can be added in between.
 * Referrers are found in one pass each (uncorrelated subqueries: SQLite builds a temporary
 * index once), not looked up per blob: journal entries keep no index on their hashes, as
 * every capture and rewind would pay for it (migration 008). For the same reason foreign keys
 * are not enforced during this delete (SQLite would scan the entries for each blob deleted);
 * the query has just proven each deleted blob unreferenced.
 */
export function collectUnreferencedBlobs(db: Db, filePath: (hash: string) => string, graceMs: number): { removed: number; bytes: number } {
  db.pragma('foreign_keys = OFF') // a no-op inside an outer transaction: then enforced, only slower
  let unreferenced: { hash: string; size: number; storage: string }[]
  try {
    unreferenced = db.transaction(() => {
      // A dictionary neither a row nor a workspace uses any more (one a workspace replaced)
      // goes first; the others are kept with their blob.
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
             hash NOT IN (SELECT hash FROM deflate_dictionaries)`
        )
        .all({ cutoff: Date.now() - graceMs }) as { hash: string; size: number; storage: string }[]
      const remove = db.prepare('DELETE FROM blobs WHERE hash = ?')
      for (const blob of found) remove.run(blob.hash)
      return found
    }).immediate()
  } finally {
    db.pragma('foreign_keys = ON')
  }
  for (const blob of unreferenced) if (blob.storage === 'file') rmSync(filePath(blob.hash), { force: true })
  return { removed: unreferenced.length, bytes: unreferenced.reduce((sum, blob) => sum + blob.size, 0) }
}
