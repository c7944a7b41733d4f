import { isRecord } from '../plain-data'

/**
 * OpenCode's history, whichever layout held it: the storage folder of JSON files (before 1.2.0)
 * or `opencode.db` (1.2.0 on, which migrates the folder into it once). Both keep the same objects — `Session.Info`, `MessageV2.Info`,
 * `MessageV2.Part` — the database with its ids and links moved into columns; readers put them back.
 */
export interface OpenCodeStore {
  /** Project id → its worktree (`project/<id>.json`, the `project` table). */
  worktrees: Map<string, string>
  sessions: OpenCodeSession[]
  problems: string[]
}

export interface OpenCodeSession {
  id: string
  projectId: string
  /** The session that started this one (a `task` tool call's sub-agent). */
  parentId: string | null
  /** Where OpenCode ran (`directory`); the project's worktree when it is missing. */
  directory: string | null
  title: string | null
  /** OpenCode's version that created the session. */
  version: string | null
  createdAt: number | undefined
  /** `/undo`: the message (and part) the session was rolled back to, while not yet cleaned up. */
  revert: { messageId: string; partId: string | null } | null
  messages: OpenCodeMessage[]
  /** Where the session came from, for problems ("session/<project>/<id>.json", "opencode.db session <id>"). */
  label: string
}

export interface OpenCodeMessage {
  id: string
  /** The message object (role, time, model, tokens, cost, error…). */
  info: Record<string, unknown>
  parts: OpenCodePart[]
}

export interface OpenCodePart {
  id: string
  data: Record<string, unknown>
}

/** `Session.Info` (a session JSON file, or a `session` row rebuilt into one) as a session without messages. */
export function sessionOf(info: Record<string, unknown>, fallback: { id: string; projectId: string; label: string }): OpenCodeSession {
  const time = isRecord(info.time) ? info.time : {}
  const revert = isRecord(info.revert) && typeof info.revert.messageID === 'string' ? { messageId: info.revert.messageID, partId: text(info.revert.partID) } : null
  return {
    id: fallback.id,
    projectId: text(info.projectID) ?? fallback.projectId,
    parentId: text(info.parentID),
    directory: text(info.directory),
    title: text(info.title),
    version: text(info.version),
    createdAt: typeof time.created === 'number' ? time.created : undefined,
    revert,
    messages: [],
    label: fallback.label
  }
}

/** OpenCode's ids (`msg_…`, `prt_…`) grow with time: sorted by id is the order they were made in. */
export function byId<T extends { id: string }>(a: T, b: T): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

export function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}
