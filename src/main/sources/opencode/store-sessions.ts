import { createHash } from 'node:crypto'
import type { SnapshotRead, SnapshotSession } from '../adapter'
import type { SourceRecord } from '../records'
import type { OpenCodeStore } from './model'
import type { SnapshotLookup } from './patch-files'
import { sessionRecords } from './session-records'
import { taskSessionId } from './tool-records'
import { text } from './model'

/**
 * The sessions of a store as snapshot sessions: a child session (`parentID`, started by the
 * `task` tool) hangs below its parent as a sub-agent, at the call that started it when the
 * parent's tool state names it. `fileEdits: false` (the data folder opened as the workspace, where
 * the project's files are not) leaves out the file changes, which only a project can journal.
 * `labelSession` marks the sessions of another agent's store (the Kilo CLI's) before they are hashed.
 */
export function storeSessions(
  store: OpenCodeStore,
  options: { fileEdits: boolean; snapshotsFor?: (projectId: string) => SnapshotLookup; labelSession?: (records: SourceRecord[]) => void }
): SnapshotRead {
  const known = new Set(store.sessions.map((session) => session.id))
  const startedBy = new Map<string, string>()
  for (const session of store.sessions) {
    for (const message of session.messages) {
      for (const part of message.parts) {
        const child = taskSessionId(part.data)
        const callId = text(part.data.callID)
        if (child && callId) startedBy.set(child, callId)
      }
    }
  }
  const sessions: SnapshotSession[] = store.sessions.map((session) => {
    const snapshots = options.snapshotsFor?.(session.projectId)
    const all = sessionRecords(session, { startedBy: startedBy.get(session.id) ?? null, parentKnown: session.parentId !== null && known.has(session.parentId), ...(snapshots ? { snapshots } : {}) })
    const records = options.fileEdits ? all : all.filter((record) => record.kind !== 'file-edit')
    options.labelSession?.(records)
    const fingerprint = createHash('sha256').update(JSON.stringify(records)).digest('hex')
    return { key: session.id, fingerprint, forkedFrom: null, startedAt: session.createdAt, records }
  })
  return { sessions, problems: store.problems }
}
