import type { WorkspaceSummary } from '../../../shared/contract'

/** A workspace as stored; whether its folder is on this disk is the handlers' to say. */
export type StoredWorkspace = Omit<WorkspaceSummary, 'folderExists' | 'readOnly'>
import type { Db } from '../database'

interface WorkspaceRow {
  id: number
  path: string
  name: string
  is_demo: number
  last_opened_at: number | null
  session_count: number
  last_activity_at: number | null
}

const SUMMARY_COLUMNS = `
  w.id, w.path, w.name, w.is_demo, w.last_opened_at,
  (SELECT count(*) FROM sessions s WHERE s.workspace_id = w.id) AS session_count,
  (SELECT max(s.updated_at) FROM sessions s WHERE s.workspace_id = w.id) AS last_activity_at`

/** Workspaces: the folders a user has opened. */
export class WorkspaceRepository {
  private readonly upsertStmt
  private readonly byIdStmt
  private readonly byPathStmt
  private readonly recentStmt
  private readonly allStmt
  private readonly sourcesStmt
  private readonly touchStmt
  private readonly rememberStmt

  constructor(private readonly db: Db) {
    this.upsertStmt = db.prepare(
      `INSERT INTO workspaces (path, name, is_demo, created_at, last_opened_at) VALUES (@path, @name, @isDemo, @now, @now)
       ON CONFLICT (path) DO UPDATE SET last_opened_at = @now, is_demo = max(is_demo, @isDemo)
       RETURNING id`
    )
    this.byIdStmt = db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM workspaces w WHERE w.id = ?`)
    this.byPathStmt = db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM workspaces w WHERE w.path = ?`)
    this.recentStmt = db.prepare(
      `SELECT ${SUMMARY_COLUMNS} FROM workspaces w ORDER BY w.last_opened_at DESC NULLS LAST, w.id DESC LIMIT ?`
    )
    this.allStmt = db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM workspaces w ORDER BY w.id`)
    this.sourcesStmt = db.prepare(
      'SELECT source, count(*) AS count FROM sessions WHERE workspace_id = ? GROUP BY source ORDER BY count DESC, source'
    )
    this.touchStmt = db.prepare('UPDATE workspaces SET last_opened_at = ? WHERE id = ?')
    this.rememberStmt = db.prepare('INSERT INTO workspaces (path, name, is_demo, created_at, last_opened_at) VALUES (?, ?, 0, ?, NULL) ON CONFLICT (path) DO NOTHING')
  }

  /** Remember a folder (or refresh its last-opened time) and return its id. */
  open(path: string, name: string, options: { isDemo?: boolean; now?: number } = {}): number {
    const row = this.upsertStmt.get({
      path,
      name,
      isDemo: options.isDemo ? 1 : 0,
      now: options.now ?? Date.now()
    }) as { id: number }
    return row.id
  }

  /**
   * Remember a folder without counting it as opened (a background import found sessions recorded
   * there): it is not put among the recently opened. Returns its id.
   */
  remember(path: string, name: string, now = Date.now()): number {
    this.rememberStmt.run(path, name, now)
    return (this.byPathStmt.get(path) as WorkspaceRow).id
  }

  touch(id: number, now = Date.now()): void {
    this.touchStmt.run(now, id)
  }

  get(id: number): StoredWorkspace | undefined {
    const row = this.byIdStmt.get(id) as WorkspaceRow | undefined
    return row && this.toSummary(row)
  }

  getByPath(path: string): StoredWorkspace | undefined {
    const row = this.byPathStmt.get(path) as WorkspaceRow | undefined
    return row && this.toSummary(row)
  }

  listRecent(limit: number): StoredWorkspace[] {
    return (this.recentStmt.all(limit) as WorkspaceRow[]).map((row) => this.toSummary(row))
  }

  /** Every workspace, oldest first. */
  listAll(): StoredWorkspace[] {
    return (this.allStmt.all() as WorkspaceRow[]).map((row) => this.toSummary(row))
  }

  private toSummary(row: WorkspaceRow): StoredWorkspace {
    return {
      id: row.id,
      path: row.path,
      name: row.name,
      isDemo: row.is_demo === 1,
      sessionCount: row.session_count,
      lastActivityAt: row.last_activity_at,
      lastOpenedAt: row.last_opened_at,
      sources: this.sourcesStmt.all(row.id) as { source: string; count: number }[]
    }
  }
}
