import type { Db } from '../database'

/** One unread record as an importer met it (sources/records.ts `UnreadRecord`). */
export interface UnreadSighting {
  agentVersion: string | null
  what: string
  offset: number
}

/** Unread records of one kind, summed: per source, agent version and kind, with where the first was. */
export interface UnreadTally {
  source: string
  agentVersion: string | null
  what: string
  count: number
  example: { file: string; offset: number }
}

interface TallyRow {
  source: string
  agent_version: string
  what: string
  count: number
  path: string
  first_offset: number
}

/**
 * The `unread_records` table: per imported file, how many well-formed records of each kind its
 * importer did not read, by the agent version that wrote them. The counts go with the file's
 * import row (deleted with it when the file is read again from the start).
 */
export class UnreadRecordRepository {
  private readonly addStmt
  private readonly clearStmt
  private readonly ofWorkspaceStmt
  private readonly everywhereStmt

  constructor(db: Db) {
    this.addStmt = db.prepare(
      `INSERT INTO unread_records (import_file_id, agent_version, what, count, first_offset) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (import_file_id, agent_version, what) DO UPDATE SET count = count + excluded.count`
    )
    this.clearStmt = db.prepare('DELETE FROM unread_records WHERE import_file_id = ?')
    // The bare `path` and `first_offset` come from the row of MIN(path) (SQLite's rule for bare columns).
    this.ofWorkspaceStmt = db.prepare(
      `SELECT f.source, u.agent_version, u.what, SUM(u.count) AS count, MIN(f.path) AS path, u.first_offset
       FROM unread_records u JOIN import_files f ON f.id = u.import_file_id
       WHERE f.workspace_id = ? GROUP BY f.source, u.agent_version, u.what ORDER BY count DESC, f.source, u.what`
    )
    // A file imported into two workspaces (nested folders) is counted once.
    this.everywhereStmt = db.prepare(
      `SELECT source, agent_version, what, SUM(count) AS count, MIN(path) AS path, first_offset FROM (
         SELECT f.source, f.path, u.agent_version, u.what, MAX(u.count) AS count, MIN(u.first_offset) AS first_offset
         FROM unread_records u JOIN import_files f ON f.id = u.import_file_id
         GROUP BY f.source, f.path, u.agent_version, u.what)
       GROUP BY source, agent_version, what ORDER BY count DESC, source, what`
    )
  }

  /** Count what one more stretch of a file held. */
  add(importFileId: number, sightings: readonly UnreadSighting[]): void {
    for (const [key, { count, offset }] of tally(sightings)) {
      const { agentVersion, what } = JSON.parse(key) as { agentVersion: string; what: string }
      this.addStmt.run(importFileId, agentVersion, what, count, offset)
    }
  }

  /** A file read whole again (a snapshot source's session): its counts start afresh. */
  replace(importFileId: number, sightings: readonly UnreadSighting[]): void {
    this.clearStmt.run(importFileId)
    this.add(importFileId, sightings)
  }

  ofWorkspace(workspaceId: number): UnreadTally[] {
    return (this.ofWorkspaceStmt.all(workspaceId) as TallyRow[]).map(tallyOf)
  }

  /** Every workspace's, each file once. */
  everywhere(): UnreadTally[] {
    return (this.everywhereStmt.all() as TallyRow[]).map(tallyOf)
  }
}

function tally(sightings: readonly UnreadSighting[]): Map<string, { count: number; offset: number }> {
  const counts = new Map<string, { count: number; offset: number }>()
  for (const sighting of sightings) {
    const key = JSON.stringify({ agentVersion: sighting.agentVersion ?? '', what: sighting.what })
    const known = counts.get(key)
    if (known) known.count += 1
    else counts.set(key, { count: 1, offset: sighting.offset })
  }
  return counts
}

function tallyOf(row: TallyRow): UnreadTally {
  return { source: row.source, agentVersion: row.agent_version === '' ? null : row.agent_version, what: row.what, count: row.count, example: { file: row.path, offset: row.first_offset } }
}
