import type { Db } from '../database'
import type { UsageGroupInput } from '../../pricing/usage-report'
import { OWN_MESSAGE } from './session-pricing'
import { sessionInView } from './workspace-view'

/** A workspace's messages with usage, grouped by day, model and source (the fields: pricing/usage-report.ts). */
export type UsageGroup = UsageGroupInput

/** Messages a merge copied into a parent: their branch spent them, and counts them already. */
const NOT_MERGED_COPY = `NOT EXISTS (SELECT 1 FROM session_merges sm WHERE sm.into_id = m.session_id
  AND m.seq >= sm.first_seq AND m.seq < sm.first_seq + sm.message_count)`

const unrecorded = (column: string): string => `coalesce(sum(CASE WHEN m.cost_usd IS NULL THEN m.${column} END), 0)`

/** The Usage view's data: one pass over a workspace's messages that carry usage. */
export class UsageRepository {
  private readonly groupsStmt

  constructor(db: Db) {
    // The day is the person's (local time), as the window shows dates.
    this.groupsStmt = db.prepare(
      `SELECT date(coalesce(m.created_at, s.created_at) / 1000, 'unixepoch', 'localtime') AS day,
         coalesce(m.model, s.model) AS model, s.source AS source, group_concat(DISTINCT s.id) AS sessionIds,
         coalesce(sum(m.input_tokens), 0) AS inputTokens, coalesce(sum(m.output_tokens), 0) AS outputTokens,
         coalesce(sum(m.cache_read_tokens), 0) AS cacheReadTokens, coalesce(sum(m.cache_write_tokens), 0) AS cacheWriteTokens,
         sum(m.cost_usd) AS recordedCostUsd,
         ${unrecorded('input_tokens')} AS unrecordedInputTokens, ${unrecorded('output_tokens')} AS unrecordedOutputTokens,
         ${unrecorded('cache_read_tokens')} AS unrecordedCacheReadTokens, ${unrecorded('cache_write_tokens')} AS unrecordedCacheWriteTokens
       FROM messages m JOIN sessions s ON s.id = m.session_id
       WHERE ${sessionInView('s', '@workspaceId')} AND (m.input_tokens IS NOT NULL OR m.cost_usd IS NOT NULL) AND ${OWN_MESSAGE} AND ${NOT_MERGED_COPY}
       GROUP BY 1, 2, 3`
    )
  }

  groups(workspaceId: number, withSubfolders = false): UsageGroup[] {
    return this.groupsStmt.all({ workspaceId, subfolders: withSubfolders ? 1 : 0 }) as UsageGroup[]
  }
}
