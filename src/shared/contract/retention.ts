import { z } from 'zod'
import { SourceIdSchema, Timestamp } from './domain'

/** What one agent does with its own history over time, as far as Retrace can read it. */
export const AgentRetentionSchema = z.object({
  source: SourceIdSchema,
  label: z.string(),
  /** Days after a session's last activity when the agent deletes its file by itself; null when it deletes nothing by age. */
  deletesAfterDays: z.number().int().nonnegative().nullable(),
  /** Where that comes from: the agent's default, the user's settings, an organisation's managed settings, or how the agent works. */
  origin: z.enum(['default', 'user-settings', 'managed-settings', 'agent-behaviour']),
  /** The settings file a longer retention would be written to (`retrace doctor --set-claude-retention`); null if none. */
  settingsFile: z.string().nullable(),
  /** One sentence for people. */
  note: z.string(),
  /** Settings that could not be read. */
  problems: z.array(z.string())
})
export type AgentRetention = z.infer<typeof AgentRetentionSchema>

/** A change Retrace made to Claude Code's settings (`cleanupPeriodDays`), with what undoing it restores. */
export const RetentionChangeSchema = z.object({
  file: z.string(),
  /** The copy of the file as it was, beside it; null when there was no file. */
  backup: z.string().nullable(),
  before: z.number().nullable(),
  after: z.number().int().positive(),
  at: Timestamp
})
export type RetentionChangeInfo = z.infer<typeof RetentionChangeSchema>

export const RetentionStatusSchema = z.object({
  agents: z.array(AgentRetentionSchema),
  /** Sessions Retrace holds whose agent file is gone (deleted by the agent), per source: kept in Retrace. */
  deleted: z.array(z.object({ source: SourceIdSchema, label: z.string(), sessions: z.number().int().positive(), firstFoundAt: Timestamp })),
  /** Retrace's last change to Claude Code's settings not undone yet (what `retention.undoClaude` undoes), or null. */
  claudeChange: RetentionChangeSchema.nullable()
})
export type RetentionStatus = z.infer<typeof RetentionStatusSchema>
