import { writeTransaction, type Db } from '../database'

/** One history file as the index keeps it: the workspace its session goes to, and its last activity. */
export interface RecordedFile {
  source: string
  path: string
  /** The folder the session recorded (normalised; a sub-agent's is its session's). */
  cwd: string
  /** Size and modification time (or a snapshot source's fingerprint): a change means read it again. */
  signature: string
  lastActivityAt: number | null
}

/** What the index holds for one workspace and source. */
export interface RecordedGroup {
  cwd: string
  source: string
  files: number
  /** Files no import has read yet (no `import_files` row for their path): sessions the store does not hold. */
  notImported: number
  lastActivityAt: number | null
}

/** The key a file has in the index: one row per source, path and folder. */
export function recordedKey(file: { source: string; path: string; cwd: string }): string {
  return `${file.source}\0${file.path}\0${file.cwd}`
}

/** The key of `importedActivities`: a file by path at one size and modification time. */
export function importedKey(source: string, path: string, size: number, mtimeMs: number): string {
  return `${source}\0${path}\0${size}\0${mtimeMs}`
}

/**
 * `recorded_files` (migration 027): the index of what the agents' histories record, per history
 * file, kept so the first screen lists workspaces without opening a file.
 */
export class RecordedFileRepository {
  private readonly allStmt
  private readonly upsertStmt
  private readonly deleteStmt
  private readonly groupsStmt
  private readonly anyStaleStmt
  private readonly recountStmts
  private readonly refreshedStmt
  private readonly markRefreshedStmt
  private readonly importedActivityStmt
  private readonly importedActivitiesStmt

  constructor(private readonly db: Db) {
    this.allStmt = db.prepare('SELECT source, path, cwd, signature, last_activity_at AS lastActivityAt FROM recorded_files')
    this.upsertStmt = db.prepare(
      `INSERT INTO recorded_files (source, path, cwd, signature, last_activity_at) VALUES (@source, @path, @cwd, @signature, @lastActivityAt)
       ON CONFLICT (source, path, cwd) DO UPDATE SET signature = excluded.signature, last_activity_at = excluded.last_activity_at`
    )
    this.deleteStmt = db.prepare('DELETE FROM recorded_files WHERE source = @source AND path = @path AND cwd = @cwd')
    this.groupsStmt = db.prepare('SELECT cwd, source, files, not_imported AS notImported, last_activity_at AS lastActivityAt FROM recorded_totals')
    this.anyStaleStmt = db.prepare('SELECT 1 FROM recorded_totals_stale LIMIT 1')
    this.recountStmts = [
      db.prepare('DELETE FROM recorded_totals WHERE (cwd, source) IN (SELECT cwd, source FROM recorded_totals_stale)'),
      db.prepare(
        `INSERT INTO recorded_totals (cwd, source, files, not_imported, last_activity_at)
         SELECT r.cwd, r.source, count(*), sum(NOT EXISTS (SELECT 1 FROM import_files f WHERE f.source = r.source AND f.path = r.path)), max(r.last_activity_at)
         FROM recorded_totals_stale s JOIN recorded_files r ON r.cwd = s.cwd AND r.source = s.source
         GROUP BY r.cwd, r.source`
      ),
      db.prepare('DELETE FROM recorded_totals_stale')
    ]
    this.refreshedStmt = db.prepare('SELECT refreshed_at AS refreshedAt FROM recorded_index_state WHERE id = 1')
    this.markRefreshedStmt = db.prepare('UPDATE recorded_index_state SET refreshed_at = ? WHERE id = 1')
    // A file an import read to its end at this size and time: its session's last activity is stored.
    this.importedActivityStmt = db.prepare(
      `SELECT max(s.updated_at) AS at FROM import_files f JOIN sessions s ON s.id = f.session_id
       WHERE f.source = ? AND f.path = ? AND f.file_size = ? AND f.mtime_ms = ?`
    )
    this.importedActivitiesStmt = db.prepare(
      `SELECT f.source, f.path, f.file_size AS size, f.mtime_ms AS mtimeMs, max(s.updated_at) AS at
       FROM import_files f JOIN sessions s ON s.id = f.session_id
       WHERE f.file_size IS NOT NULL AND f.mtime_ms IS NOT NULL GROUP BY f.source, f.path, f.file_size, f.mtime_ms`
    )
  }

  /** Every file in the index, by `recordedKey`. */
  all(): Map<string, RecordedFile> {
    return new Map((this.allStmt.all() as RecordedFile[]).map((row) => [recordedKey(row), row]))
  }

  /**
   * Per workspace and source: how many files, how many not imported yet, and the latest activity.
   * From the kept totals (`recorded_totals`, migration 029), recounting first the groups a write
   * marked stale, in one write transaction; else in one read, so stale marks and totals agree.
   */
  groups(): RecordedGroup[] {
    const kept = this.db.transaction(() => (this.anyStaleStmt.get() ? null : (this.groupsStmt.all() as RecordedGroup[])))()
    return (
      kept ??
      writeTransaction(this.db, () => {
        for (const stmt of this.recountStmts) stmt.run()
        return this.groupsStmt.all() as RecordedGroup[]
      })
    )
  }

  /** When the index was last brought up to date with every history file; null if never. */
  refreshedAt(): number | null {
    return (this.refreshedStmt.get() as { refreshedAt: number | null }).refreshedAt
  }

  /** The last activity the store holds for a file imported to its end at this size and time, else null. */
  importedActivity(source: string, path: string, size: number, mtimeMs: number): number | null {
    return (this.importedActivityStmt.get(source, path, size, mtimeMs) as { at: number | null }).at
  }

  /**
   * `importedActivity` of every file imported to its end, in one query, by `importedKey`: for a
   * refresh that finds thousands of files changed (the first after an upgrade or an import).
   */
  importedActivities(): Map<string, number> {
    const rows = this.importedActivitiesStmt.all() as { source: string; path: string; size: number; mtimeMs: number; at: number }[]
    return new Map(rows.map((row) => [importedKey(row.source, row.path, row.size, row.mtimeMs), row.at]))
  }

  /** Write what a refresh found changed and gone, and when it ran, in one transaction. */
  apply(changed: readonly RecordedFile[], gone: readonly RecordedFile[], refreshedAt: number): void {
    writeTransaction(this.db, () => {
      for (const file of changed) this.upsertStmt.run(file)
      for (const file of gone) this.deleteStmt.run({ source: file.source, path: file.path, cwd: file.cwd })
      this.markRefreshedStmt.run(refreshedAt)
    })
  }
}
