import { z } from 'zod'
import { SourceIdSchema, WorkspaceIdSchema } from './domain'
import type { MethodSpec } from './method-spec'

const method = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O): MethodSpec<I, O> => ({ input, output })

const Count = z.number().int().nonnegative()

/** Tokens and cost of one group of a workspace's messages (a day, a model, a source). */
export const UsageRowSchema = z.object({
  /** The day (`YYYY-MM-DD`, local time), the model as the agent named it, or the source. */
  key: z.string(),
  sessions: Count,
  inputTokens: Count,
  outputTokens: Count,
  cacheReadTokens: Count,
  cacheWriteTokens: Count,
  /** What the source recorded, plus the other tokens at the price table's prices; null when neither is known. */
  costUsd: z.number().nonnegative().nullable(),
  /** Of the tokens, how many are of a model the price table does not know (so not in costUsd). */
  unpricedTokens: Count
})
export type UsageRow = z.infer<typeof UsageRowSchema>

export const WorkspaceUsageSchema = z.object({
  /** The date of the price table the costs were computed with (LiteLLM's published prices). */
  pricesDate: z.string(),
  total: UsageRowSchema,
  /** Newest day first. */
  byDay: z.array(UsageRowSchema),
  /** Dearest first. */
  byModel: z.array(UsageRowSchema),
  bySource: z.array(UsageRowSchema.extend({ key: SourceIdSchema }))
})
export type WorkspaceUsage = z.infer<typeof WorkspaceUsageSchema>

/** A day, `YYYY-MM-DD` (local time). */
const DaySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day as YYYY-MM-DD')

/** A day of the report over every workspace: its usage, and the same by model (what ccusage calls the model breakdowns). */
export const UsageDaySchema = UsageRowSchema.extend({ models: z.array(UsageRowSchema) })
export type UsageDay = z.infer<typeof UsageDaySchema>

/** A workspace's row: `key` is its folder. */
export const WorkspaceUsageRowSchema = UsageRowSchema.extend({ workspaceId: WorkspaceIdSchema })

export const AllUsageInputSchema = z
  .object({
    /** The first day counted (local time), inclusive; none: from the first. */
    since: DaySchema.optional(),
    /** The last day counted, inclusive; none: up to now. */
    until: DaySchema.optional(),
    /** Only these workspaces' own sessions; none: every workspace. */
    workspaceIds: z.array(WorkspaceIdSchema).optional()
  })
  .strict()

export const AllUsageSchema = z.object({
  pricesDate: z.string(),
  since: DaySchema.nullable(),
  until: DaySchema.nullable(),
  total: UsageRowSchema,
  /** Oldest day first (as ccusage's daily report), each with its models, dearest first. */
  byDay: z.array(UsageDaySchema),
  /** Dearest first. */
  byModel: z.array(UsageRowSchema),
  bySource: z.array(UsageRowSchema.extend({ key: SourceIdSchema })),
  byWorkspace: z.array(WorkspaceUsageRowSchema)
})
export type AllUsage = z.infer<typeof AllUsageSchema>

export const usageMethods = {
  /**
   * A workspace's tokens and cost, by day, by model and by source. Counts each message's usage
   * once (not a branch's copy of its parent's prefix, nor what a merge copied into a parent); a
   * cost the source recorded wins over the price table's.
   */
  'usage.workspace': method(z.object({ workspaceId: WorkspaceIdSchema }).strict(), WorkspaceUsageSchema),
  /**
   * Tokens and cost of every workspace (or of some), by day, model, source and workspace, over a
   * range of days. Each session counts in the workspace that stores it (one session, one row), and
   * each message once, as in `usage.workspace`.
   */
  'usage.all': method(AllUsageInputSchema, AllUsageSchema)
}
