import { writeTransaction, type Db } from '../database'

/** A stored workspace as the first screen lists it: warm-ups left out of its counts. */
export interface ListedWorkspace {
  id: number
  path: string
  name: string
  isDemo: boolean
  lastOpenedAt: number | null
  /** Sessions but warm-ups (Claude Code's start-up agents, sessions that only held them). */
  sessionCount: number
  lastActivityAt: number | null
  /** What its sessions cost, recorded by their source or priced by Retrace; null when none says. */
  costUsd: number | null
  sources: { source: string; count: number }[]
}

interface ListedRow {
  id: number
  path: string
  name: string
  is_demo: number
  last_opened_at: number | null
  session_count: number
  last_activity_at: number | null
  cost_usd: number | null
  /** JSON `[[source, count], …]`; null when the workspace's totals are not kept (recounted then). */
  sources: string | null
}

// What a full recount gives, for the workspaces whose totals `workspace_totals` (migration 029)
// does not hold: the same sums over the same rows, in the same order (sessions_by_activity), as
// grouping every session of every workspace, so a kept figure is exactly the recount's.
const RECOUNT_MISSING = `INSERT INTO workspace_totals (workspace_id, session_count, last_activity_at, cost_usd, sources)
  SELECT w.id,
    count(s.id) FILTER (WHERE s.warmup = 0),
    max(s.updated_at),
    sum(coalesce(s.cost_usd, s.priced_cost_usd)),
    (SELECT json_group_array(json_array(source, n)) FROM
      (SELECT source, count(*) AS n FROM sessions WHERE workspace_id = w.id AND warmup = 0 GROUP BY source ORDER BY n DESC, source))
  FROM workspaces w LEFT JOIN sessions s ON s.workspace_id = w.id
  WHERE NOT EXISTS (SELECT 1 FROM workspace_totals t WHERE t.workspace_id = w.id)
  GROUP BY w.id`

/**
 * The first screen's reads of the store (every workspace in one query of its kept totals, not a
 * grouping of every session on each call) and its writes: hiding a folder (`hidden_workspaces`,
 * migration 027) and forgetting a workspace.
 */
export class WorkspaceListingRepository {
  private readonly listedStmt
  private readonly recountStmt
  private readonly hiddenStmt
  private readonly hideStmt
  private readonly unhideStmt
  private readonly countStmt
  private readonly forgetStmt

  constructor(private readonly db: Db) {
    this.listedStmt = db.prepare(
      `SELECT w.id, w.path, w.name, w.is_demo, w.last_opened_at, t.session_count, t.last_activity_at, t.cost_usd, t.sources
       FROM workspaces w LEFT JOIN workspace_totals t ON t.workspace_id = w.id ORDER BY w.id`
    )
    this.recountStmt = db.prepare(RECOUNT_MISSING)
    this.hiddenStmt = db.prepare('SELECT path FROM hidden_workspaces')
    this.hideStmt = db.prepare('INSERT INTO hidden_workspaces (path, hidden_at) VALUES (?, ?) ON CONFLICT (path) DO NOTHING')
    this.unhideStmt = db.prepare('DELETE FROM hidden_workspaces WHERE path = ?')
    this.countStmt = db.prepare('SELECT count(*) AS all_sessions, count(*) FILTER (WHERE warmup = 0) AS sessions FROM sessions WHERE workspace_id = ?')
    this.forgetStmt = db.prepare('DELETE FROM workspaces WHERE id = ?')
  }

  /**
   * Every stored workspace, oldest first, with counts, activity and cost: from the kept totals,
   * recounting (and keeping) those a write since removed, in one write transaction so a total
   * is never kept from rows another process changed meanwhile.
   */
  listed(): ListedWorkspace[] {
    const kept = this.listedStmt.all() as ListedRow[]
    const rows = kept.every((row) => row.sources !== null)
      ? kept
      : writeTransaction(this.db, () => {
          this.recountStmt.run()
          return this.listedStmt.all() as ListedRow[]
        })
    return rows.map((row) => ({
      id: row.id,
      path: row.path,
      name: row.name,
      isDemo: row.is_demo === 1,
      lastOpenedAt: row.last_opened_at,
      sessionCount: row.session_count,
      lastActivityAt: row.last_activity_at,
      costUsd: row.cost_usd,
      sources: (JSON.parse(row.sources ?? '[]') as [string, number][]).map(([source, count]) => ({ source, count }))
    }))
  }

  /** The folders hidden from the first screen. */
  hidden(): Set<string> {
    return new Set((this.hiddenStmt.all() as { path: string }[]).map((row) => row.path))
  }

  /** Hide a folder (true) or show it again (false). Returns whether anything changed. */
  setHidden(path: string, hidden: boolean, now = Date.now()): boolean {
    return (hidden ? this.hideStmt.run(path, now) : this.unhideStmt.run(path)).changes > 0
  }

  /** How many sessions forgetting a workspace removes: all of them, and those the list counts (no warm-ups). */
  sessionsOf(workspaceId: number): { all: number; listed: number } {
    const row = this.countStmt.get(workspaceId) as { all_sessions: number; sessions: number }
    return { all: row.all_sessions, listed: row.sessions }
  }

  /**
   * Remove a workspace and everything the store holds of it (sessions, messages, imports' offsets,
   * its journal: the foreign keys cascade). The agents' files are not touched. Returns whether it was there.
   */
  forget(workspaceId: number): boolean {
    return writeTransaction(this.db, () => this.forgetStmt.run(workspaceId).changes > 0)
  }
}
