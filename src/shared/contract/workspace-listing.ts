import { z } from 'zod'
import { SourceIdSchema, Timestamp, WorkspaceIdSchema } from './domain'

/**
 * One workspace of `workspaces.listAll`: a folder Retrace holds sessions for, or one the agents'
 * histories record as where a session ran (imported or not yet), whether or not the folder is
 * still on this computer.
 */
export const WorkspaceListingSchema = z.object({
  path: z.string(),
  name: z.string(),
  /** Its id in Retrace's store; null until it is opened or imported. */
  workspaceId: WorkspaceIdSchema.nullable(),
  isDemo: z.boolean(),
  /** False when no folder is at `path` any more (deleted, moved, or recorded on another computer): browsable, not rewindable. */
  folderExists: z.boolean(),
  /** Sessions per source: those Retrace holds (warm-ups left out), plus the history files no import has read yet. */
  sources: z.array(z.object({ source: SourceIdSchema, sessions: z.number().int().nonnegative() })),
  sessionCount: z.number().int().nonnegative(),
  /** The latest of the stored sessions' activity and the history files' modification times. */
  lastActivityAt: Timestamp.nullable(),
  lastOpenedAt: Timestamp.nullable(),
  /** What its stored sessions cost (recorded by their source, else priced by Retrace); null when none says. */
  costUsd: z.number().nonnegative().nullable(),
  /** Hidden from the first screen by the user (`workspaces.setHidden`); listed still, for "show hidden". */
  hidden: z.boolean(),
  /** Why this folder is a read-only workspace, never rewound (the home folder, `/root`, `/`…), or null. */
  refused: z.string().nullable()
})
export type WorkspaceListing = z.infer<typeof WorkspaceListingSchema>

/** What forgetting a workspace removes from the store (the agents' files stay). */
export const ForgetPlanSchema = z.object({
  workspaceId: WorkspaceIdSchema,
  path: z.string(),
  /** Every stored session of it, warm-ups included: all go. */
  sessions: z.number().int().nonnegative(),
  /** Of those, the warm-ups the list does not count. */
  warmups: z.number().int().nonnegative(),
  /** Whether the folder is hidden: if not, a later `import --all` brings its sessions back. */
  hidden: z.boolean()
})
export type ForgetPlan = z.infer<typeof ForgetPlanSchema>
