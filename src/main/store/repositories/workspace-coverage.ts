import { keepsNoFileContent, type RewindCoverage } from '../../../shared/contract'
import type { Db } from '../database'
import { COVERAGE_COLUMNS } from './sessions'
import { sessionInView } from './workspace-view'

/**
 * What a rewind can put back of the sessions a workspace stores, warm-ups too: the coverage its
 * session list shows (COVERAGE_COLUMNS, by the same indexes), summed in one query instead of
 * paging through every session's row (`retrace import` reports it for every workspace).
 */
export class WorkspaceCoverageRepository {
  private readonly sumStmt

  constructor(db: Db) {
    this.sumStmt = db.prepare(
      `SELECT coalesce(sum(recorded_count), 0) AS recorded, coalesce(sum(not_captured_count), 0) AS notCaptured,
         coalesce(sum(uncaptured_count), 0) AS uncapturedCommands, group_concat(DISTINCT source) AS sources
       FROM (SELECT s.source, ${COVERAGE_COLUMNS} FROM sessions s WHERE ${sessionInView('s', '@workspaceId')})`
    )
  }

  of(workspaceId: number): RewindCoverage {
    const row = this.sumStmt.get({ workspaceId, subfolders: 0 }) as { recorded: number; notCaptured: number; uncapturedCommands: number; sources: string | null }
    const sources = row.sources === null ? [] : row.sources.split(',')
    return { recorded: row.recorded, notCaptured: row.notCaptured, uncapturedCommands: row.uncapturedCommands, agentKeepsNoContent: sources.some(keepsNoFileContent) }
  }
}
