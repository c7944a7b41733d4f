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
  /** A workspace's agent histories are being imported: `done` of `total` files. */
  'import.progress': z.object({ workspaceId: WorkspaceIdSchema, done: z.number().int().nonnegative(), total: z.number().int().nonnegative(), file: z.string() }),
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
