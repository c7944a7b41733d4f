import { z } from 'zod'
import { SessionIdSchema } from './domain'

/**
 * Who last wrote a line. `turn`: a session's turn (a tool or a workspace scan saw it write).
 * `rewind`: a rewind wrote content no recorded version had. `outside`: the file changed between
 * two journaled versions and no turn did it (the turn named is the one that then saw it).
 * `earlier`: the line was already there when Retrace first saw the file. `disk`: the file on
 * disk differs from its last journaled version (changed since, by no agent turn).
 */
export const BlameOriginSchema = z.object({
  kind: z.enum(['turn', 'rewind', 'outside', 'earlier', 'disk']),
  sessionId: SessionIdSchema.nullable(),
  sessionTitle: z.string().nullable(),
  source: z.string().nullable(),
  turn: z.number().int().nullable(),
  /** The turn's first prompt, cut to 300 characters. */
  prompt: z.string().nullable(),
  /** When (ms): the turn's time, the rewind's, or when the outside change was first seen. Null for `disk`. */
  createdAt: z.number().int().nullable(),
  observed: z.enum(['tool', 'scan', 'backup', 'patch', 'rewind']).nullable()
})
export type BlameOrigin = z.infer<typeof BlameOriginSchema>

export const BlameRunSchema = z.object({
  /** First line of the run, counted from 1. */
  start: z.number().int().positive(),
  count: z.number().int().positive(),
  /** Index into `origins`. */
  origin: z.number().int().nonnegative()
})

export const BlameSchema = z.object({
  path: z.string(),
  lines: z.array(z.string()),
  origins: z.array(BlameOriginSchema),
  runs: z.array(BlameRunSchema),
  /** How many recorded versions (content changes) the blame walked through. */
  versions: z.number().int().nonnegative(),
  /** The disk against the last journaled version: the same, changed since (blamed as `disk`), or no file there (the last recorded content is shown). */
  disk: z.enum(['same', 'changed', 'absent']),
  /** When the file's last recorded change deleted it: that change (the lines are the content before). */
  deletedBy: z.number().int().nonnegative().nullable()
})
export type Blame = z.infer<typeof BlameSchema>
