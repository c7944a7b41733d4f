import type { Db } from '../database'
import type { UsageGroupInput } from '../../pricing/usage-report'
import type { AllUsageGroup } from '../../pricing/all-usage-report'
import { OWN_MESSAGE } from './session-pricing'
import { sessionInView } from './workspace-view'

/** A workspace's messages with usage, grouped by day, model and source (the fields: pricing/usage-report.ts). */
export type UsageGroup = UsageGroupInput

/** Which messages the report over every workspace reads: a time range (ms, `until` excluded) and, if given, some workspaces only. */
export interface UsageRange {
  sinceMs: number | null
  untilMs: number | null
  workspaceIds: readonly number[] | null
}

/** Messages a merge copied into a parent: their branch spent them, and counts them already. */
const NOT_MERGED_COPY = `NOT EXISTS (SELECT 1 FROM session_merges sm WHERE sm.into_id = m.session_id
  AND m.seq >= sm.first_seq AND m.seq < sm.first_seq + sm.message_count)`

/** Only a session some merge went into can hold merged copies: the subquery runs once, not per message. */
const NOT_MERGED_COPY_FAST = `(m.session_id NOT IN (SELECT into_id FROM session_merges) OR ${NOT_MERGED_COPY})`

/** The messages with usage; word for word the WHERE clause of the `messages_usage` index (migration 028). */
const HAS_USAGE = '(m.input_tokens IS NOT NULL OR m.cost_usd IS NOT NULL)'

/** Quarter hours: every time zone's offset is a whole number of them, so each falls in one local day. */
export const USAGE_BUCKET_MS = 15 * 60 * 1000

const unrecorded = (column: string): string => `coalesce(sum(CASE WHEN m.cost_usd IS NULL THEN m.${column} END), 0)`

const SUMS = `coalesce(sum(m.input_tokens), 0) AS inputTokens, coalesce(sum(m.output_tokens), 0) AS outputTokens,
  coalesce(sum(m.cache_read_tokens), 0) AS cacheReadTokens, coalesce(sum(m.cache_write_tokens), 0) AS cacheWriteTokens,
  sum(m.cost_usd) AS recordedCostUsd,
  ${unrecorded('input_tokens')} AS unrecordedInputTokens, ${unrecorded('output_tokens')} AS unrecordedOutputTokens,
  ${unrecorded('cache_read_tokens')} AS unrecordedCacheReadTokens, ${unrecorded('cache_write_tokens')} AS unrecordedCacheWriteTokens`

/** The Usage view's data: one pass over the messages that carry usage. */
export class UsageRepository {
  private readonly groupsStmt
  private readonly allGroupsStmt

  constructor(db: Db) {
    // The day is the person's (local time), as the window shows dates.
    this.groupsStmt = db.prepare(
      `SELECT date(coalesce(m.created_at, s.created_at) / 1000, 'unixepoch', 'localtime') AS day,
         coalesce(m.model, s.model) AS model, s.source AS source, group_concat(DISTINCT s.id) AS sessionIds, ${SUMS}
       FROM messages m JOIN sessions s ON s.id = m.session_id
       WHERE ${sessionInView('s', '@workspaceId')} AND ${HAS_USAGE} AND ${OWN_MESSAGE} AND ${NOT_MERGED_COPY}
       GROUP BY 1, 2, 3`
    )
    // Every session, then its messages through the covering index (sessions outer: one lookup per
    // session, not per message). Grouped by session and quarter hour, not by local day: date()
    // with 'localtime' per message is the costliest term on millions; the caller turns each
    // quarter into its day once.
    this.allGroupsStmt = db.prepare(
      `SELECT coalesce(m.created_at, s.created_at) / ${USAGE_BUCKET_MS} AS bucket, coalesce(m.model, s.model) AS model,
         s.id AS sessionId, s.source AS source, s.workspace_id AS workspaceId, ${SUMS}
       FROM sessions s CROSS JOIN messages m INDEXED BY messages_usage ON m.session_id = s.id
       WHERE ${HAS_USAGE} AND ${OWN_MESSAGE} AND ${NOT_MERGED_COPY_FAST}
         AND (@workspaceIds IS NULL OR s.workspace_id IN (SELECT value FROM json_each(@workspaceIds)))
         AND (@sinceMs IS NULL OR coalesce(m.created_at, s.created_at) >= @sinceMs)
         AND (@untilMs IS NULL OR coalesce(m.created_at, s.created_at) < @untilMs)
       GROUP BY s.id, 1, 2`
    )
  }

  groups(workspaceId: number, withSubfolders = false): UsageGroup[] {
    return this.groupsStmt.all({ workspaceId, subfolders: withSubfolders ? 1 : 0 }) as UsageGroup[]
  }

  /** Usage of every workspace's sessions (or of some), by session, quarter hour (USAGE_BUCKET_MS) and model. */
  everyWorkspace(range: UsageRange): AllUsageGroup[] {
    return this.allGroupsStmt.all({
      sinceMs: range.sinceMs,
      untilMs: range.untilMs,
      workspaceIds: range.workspaceIds === null ? null : JSON.stringify(range.workspaceIds)
    }) as AllUsageGroup[]
  }
}
