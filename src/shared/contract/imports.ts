import { z } from 'zod'

/** A line (or file) an import could not use, and why. */
export const SkippedLineSchema = z.object({ file: z.string(), offset: z.number().int().nonnegative(), reason: z.string() })

/** What an import did: files read, sessions created, messages, tool calls and file changes added. */
export const ImportReportSchema = z.object({
  files: z.number().int().nonnegative(),
  sessions: z.number().int().nonnegative(),
  messages: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
  fileChanges: z.number().int().nonnegative(),
  skipped: z.array(SkippedLineSchema)
})
export type ImportReportShape = z.infer<typeof ImportReportSchema>
