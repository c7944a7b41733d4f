import { z } from 'zod'
import { Timestamp } from './domain'
import { ImportSourceSchema } from './sources'

/** A line (or file) an import could not use, and why. */
export const SkippedLineSchema = z.object({ file: z.string(), offset: z.number().int().nonnegative(), reason: z.string() })

/**
 * Well-formed records an importer does not read (a record type, an event, a field it does not
 * know: a format change), counted per source, agent version and kind, with where the first was.
 */
export const UnreadCountSchema = z.object({
  source: ImportSourceSchema,
  agentVersion: z.string().nullable(),
  what: z.string(),
  count: z.number().int().positive(),
  example: z.object({ file: z.string(), offset: z.number().int().nonnegative() })
})
export type UnreadCountShape = z.infer<typeof UnreadCountSchema>

/** What an import did: files read, sessions created, messages, tool calls and file changes added. */
export const ImportReportSchema = z.object({
  files: z.number().int().nonnegative(),
  sessions: z.number().int().nonnegative(),
  messages: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
  fileChanges: z.number().int().nonnegative(),
  /** Lines (or files) that were not imported, and why. */
  skipped: z.array(SkippedLineSchema),
  /**
   * File changes recorded on lines that *were* imported but could not be journaled (their
   * earlier content is unknown, they are outside the workspace…): not rewindable, and not
   * skipped lines either.
   */
  changesNotJournaled: z.array(SkippedLineSchema),
  unread: z.array(UnreadCountSchema)
})
export type ImportReportShape = z.infer<typeof ImportReportSchema>

/** An import under way: `done` of `total` files, and the one being read ('' once all are done). */
export const ImportProgressSchema = z.object({
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  file: z.string()
})

/**
 * How a workspace's background import stands. `report` sums everything imported since the
 * workspace was opened (the catch-up import and what live following added since); its
 * `skipped` list keeps the first lines only, `skippedTotal` counts them all.
 */
export const ImportStatusSchema = z.object({
  workspaceId: z.number().int().positive(),
  state: z.enum(['idle', 'running', 'done', 'cancelled', 'failed']),
  progress: ImportProgressSchema.nullable(),
  report: ImportReportSchema.nullable(),
  skippedTotal: z.number().int().nonnegative(),
  /** File changes not journaled, all counted (`report.changesNotJournaled` keeps the first). */
  notJournaledTotal: z.number().int().nonnegative(),
  /** History files a cancelled import left for later: live following skips them until `imports.run`. */
  pendingFiles: z.number().int().nonnegative(),
  error: z.string().nullable(),
  finishedAt: Timestamp.nullable()
})
export type ImportStatus = z.infer<typeof ImportStatusSchema>

/** A source of agent histories: what it reads, and where it looks for them. */
export const SourceInfoSchema = z.object({
  name: z.string(),
  label: z.string(),
  /** Where it looks now (its documented defaults and environment overrides, resolved), in words. */
  looksIn: z.string(),
  /** False while the importer is built from the agent's own writer and not yet tested on real files of it. */
  seenOnRealFiles: z.boolean()
})

/** A folder the user added to a workspace as one source's history. */
export const SourceFolderSchema = z.object({
  id: z.number().int().positive(),
  source: z.string(),
  path: z.string(),
  addedAt: z.number().int().nonnegative()
})
