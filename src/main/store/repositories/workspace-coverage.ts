import { keepsNoFileContent, type RewindCoverage } from '../../../shared/contract'
import type { Db } from '../database'

/**
 * What a rewind can put back of the sessions a workspace stores, warm-ups too: the coverage its
 * session list shows (COVERAGE_COLUMNS in sessions.ts, summed), in one query instead of paging
 * through every session's row (`retrace import` reports it for every workspace). The view of a
 * workspace without its subfolders is the sessions stored in it (workspace-view.ts, `@subfolders`
 * 0), so each sum joins from `sessions_by_activity` to the per-session rows: three joins per
 * workspace cost a third of a correlated subquery per session (300 workspaces, 56,000 sessions).
 */
const COVERAGE_OF_WORKSPACE = `(SELECT count(*) FROM sessions s JOIN journal_scopes js ON js.session_id = s.id AND js.kind = 'turn'
      JOIN journal_entries e ON e.scope_id = js.id WHERE s.workspace_id = w.id) AS recorded,
    (SELECT count(*) FROM sessions s JOIN not_captured_changes n ON n.session_id = s.id WHERE s.workspace_id = w.id) AS notCaptured,
    (SELECT coalesce(sum(c.uncaptured_commands), 0) FROM sessions s JOIN checkpoints c ON c.session_id = s.id WHERE s.workspace_id = w.id) AS uncapturedCommands,
    (SELECT group_concat(DISTINCT s.source) FROM sessions s WHERE s.workspace_id = w.id) AS sources`

interface CoverageRow {
  recorded: number
  notCaptured: number
  uncapturedCommands: number
  sources: string | null
}

const NONE: RewindCoverage = { recorded: 0, notCaptured: 0, uncapturedCommands: 0, agentKeepsNoContent: false }

function toCoverage(row: CoverageRow): RewindCoverage {
  const sources = row.sources === null ? [] : row.sources.split(',')
  return { recorded: row.recorded, notCaptured: row.notCaptured, uncapturedCommands: row.uncapturedCommands, agentKeepsNoContent: sources.some(keepsNoFileContent) }
}

export class WorkspaceCoverageRepository {
  private readonly oneStmt
  private readonly everyStmt

  constructor(db: Db) {
    this.oneStmt = db.prepare(`SELECT ${COVERAGE_OF_WORKSPACE} FROM workspaces w WHERE w.id = ?`)
    this.everyStmt = db.prepare(`SELECT w.id AS id, ${COVERAGE_OF_WORKSPACE} FROM workspaces w`)
  }

  of(workspaceId: number): RewindCoverage {
    const row = this.oneStmt.get(workspaceId) as CoverageRow | undefined
    return row === undefined ? NONE : toCoverage(row)
  }

  /** Every workspace's coverage by id, in one statement (`retrace import --all` reports them all). */
  ofEvery(): Map<number, RewindCoverage> {
    const rows = this.everyStmt.all() as (CoverageRow & { id: number })[]
    return new Map(rows.map((row) => [row.id, toCoverage(row)]))
  }
}
