import { z } from 'zod'
import { SessionIdSchema, WorkspaceIdSchema } from './domain'

export const EntitySchema = z.enum(['workspaces', 'sessions', 'messages', 'checkpoints', 'files', 'rewinds'])
export type Entity = z.infer<typeof EntitySchema>

/** Push events from the main process (or web server) to every connected renderer. */
export const events = {
  /** Something was written: renderers invalidate the queries that read these entities. */
  'data.changed': z.object({
    entities: z.array(EntitySchema).min(1),
    workspaceId: WorkspaceIdSchema.optional(),
    sessionIds: z.array(SessionIdSchema).optional()
  }),
  /** A rewind (or undo) is running: `done` of `total` file operations. */
  'rewind.progress': z.object({ sessionId: SessionIdSchema.nullable(), done: z.number().int().nonnegative(), total: z.number().int().nonnegative(), path: z.string() }),
  /** Files of an open rewind preview changed on disk (`rewind.watchPreview`): the preview is stale. */
  'rewind.previewChanged': z.object({ watchId: z.string().uuid(), paths: z.array(z.string()) }),
  /** A workspace's agent histories are being imported: `done` of `total` files. */
  'import.progress': z.object({ workspaceId: WorkspaceIdSchema, done: z.number().int().nonnegative(), total: z.number().int().nonnegative(), file: z.string() }),
  /**
   * A workspace's import ended (every run of `import.progress` ends with one): completed,
   * cancelled (`imports.cancel`) or failed, with what it added. The full report, skipped lines
   * included, is `imports.status`.
   */
  'import.finished': z.object({
    workspaceId: WorkspaceIdSchema,
    outcome: z.enum(['done', 'cancelled', 'failed']),
    /** History files read to their end, of those this import looked at. */
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    /** Files with new lines (a cancelled file counts if it was started). */
    files: z.number().int().nonnegative(),
    sessions: z.number().int().nonnegative(),
    messages: z.number().int().nonnegative(),
    skipped: z.number().int().nonnegative(),
    /** Files a cancel left unimported (waiting for `imports.run`). */
    pendingFiles: z.number().int().nonnegative()
  }),
  /** An export is scanning a session for secrets: `done` of `total` strings (`export.review`, `export.render`). */
  'export.progress': z.object({ sessionId: SessionIdSchema, done: z.number().int().nonnegative(), total: z.number().int().nonnegative() }),
  /** A workspace was opened from outside the renderer (application menu, second instance). */
  'workspace.opened': z.object({ workspaceId: WorkspaceIdSchema })
} as const

export type Events = typeof events
export type EventName = keyof Events
export type EventPayload<K extends EventName> = z.output<Events[K]>
/** One pushed event, as it travels over IPC or the WebSocket. */
export type EventMessage = { [K in EventName]: { name: K; payload: EventPayload<K> } }[EventName]

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(events, name)
}
