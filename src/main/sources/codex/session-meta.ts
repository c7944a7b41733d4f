// `session_meta` and `turn_context` lines: the session header and later cwd / model changes.
import type { SessionMetaRecord } from '../records'
import type { Emitter } from './emitter'
import { parseTime } from './record-builders'
import { SessionMetaSchema, TurnContextSchema } from './schemas'
import { spawnedBy } from './thread-source'

export function handleSessionMeta(em: Emitter, payload: unknown, offset: number, lineTime: number | undefined): void {
  const s = em.state
  const meta = em.check(SessionMetaSchema, payload, offset, 'session_meta')
  if (!meta) return
  if (s.sessionId !== null && meta.id !== s.sessionId) {
    // A fork (a child thread forked with its parent's context too) copies its source's history, header included.
    if (s.copiedFrom.includes(meta.id)) em.emit({ kind: 'note', offset, text: `history copied from ${meta.id} (its session_meta)` })
    else em.skip(offset, `session_meta of another session (${meta.id}) inside the rollout of ${s.sessionId}: ignored`)
    return
  }
  if (s.sessionId === meta.id) {
    // A repeated header of the same session (resumed rollout): only what changed.
    emitMetaChanges(em, offset, meta.cwd, meta.model ?? undefined)
    return
  }
  s.sessionId = meta.id
  s.cliVersion = meta.cli_version ?? null
  s.historyMode = meta.history_mode ?? null
  s.copiedFrom = [meta.forked_from_id, spawnedBy(meta)].filter((id): id is string => typeof id === 'string' && id !== '')
  const record: SessionMetaRecord = { kind: 'session-meta', offset, sessionId: meta.id }
  const createdAt = parseTime(meta.timestamp) ?? lineTime
  if (createdAt !== undefined) record.createdAt = createdAt
  if (meta.cwd) {
    record.cwd = meta.cwd
    s.cwd = meta.cwd
  }
  if (meta.model) {
    record.model = meta.model
    s.model = meta.model
  }
  if (meta.git?.branch) record.gitBranch = meta.git.branch
  if (meta.forked_from_id) record.forkedFrom = { sessionId: meta.forked_from_id, messageUid: null }
  em.emit(record)
}

export function handleTurnContext(em: Emitter, payload: unknown, offset: number): void {
  const context = em.check(TurnContextSchema, payload, offset, 'turn_context')
  if (!context) return
  emitMetaChanges(em, offset, context.cwd, context.model)
}

/** A session-meta record with the cwd / model that differ from the last ones emitted, if any. */
function emitMetaChanges(em: Emitter, offset: number, cwd: string | undefined, model: string | undefined): void {
  const s = em.state
  const record: SessionMetaRecord = { kind: 'session-meta', offset }
  if (cwd && cwd !== s.cwd) {
    record.cwd = cwd
    s.cwd = cwd
  }
  if (model && model !== s.model) {
    record.model = model
    s.model = model
  }
  if (record.cwd !== undefined || record.model !== undefined) em.emit(record)
}
