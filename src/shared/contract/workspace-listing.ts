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
  /** Sessions per source: as many as Retrace holds or the histories record, whichever is more. */
  sources: z.array(z.object({ source: SourceIdSchema, sessions: z.number().int().nonnegative() })),
  sessionCount: z.number().int().nonnegative(),
  /** The latest of the stored sessions' activity and the history files' modification times. */
  lastActivityAt: Timestamp.nullable(),
  lastOpenedAt: Timestamp.nullable(),
  /** Why this folder is a read-only workspace, never rewound (the home folder, `/root`, `/`…), or null. */
  refused: z.string().nullable()
})
export type WorkspaceListing = z.infer<typeof WorkspaceListingSchema>
