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

export const usageMethods = {
  /**
   * A workspace's tokens and cost, by day, by model and by source. Counts each message's usage
   * once (not a branch's copy of its parent's prefix, nor what a merge copied into a parent); a
   * cost the source recorded wins over the price table's.
   */
  'usage.workspace': method(z.object({ workspaceId: WorkspaceIdSchema }).strict(), WorkspaceUsageSchema)
}
