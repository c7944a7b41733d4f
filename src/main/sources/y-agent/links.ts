import type { CheckpointRow, EntryRow, ObservationRow, RollbackRow, ScopeRow, StoreDb, TraceRow } from './store-db'

/**
 * How y-agent's tables point at each other, indexed once: a journal scope belongs to a turn
 * (`chat_checkpoints.journal_scope_id`) and to a trace (`trace_id`), a journal entry to the tool
 * call observation that made it, an observation to its trace, a trace to its session.
 */
export interface StoreIndex {
  trace: Map<string, TraceRow>
  observation: Map<string, ObservationRow>
  /** A trace's observations in their order (`sequence`, then start). */
  observationsOf: Map<string, ObservationRow[]>
  scope: Map<string, ScopeRow>
  checkpointOfScope: Map<string, CheckpointRow>
  entriesOfScope: Map<string, EntryRow[]>
  rollbackOfScope: Map<string, RollbackRow>
  /** Journal entries by the tool call observation that made them, and by the session they were made in (oldest first). */
  entriesOfObservation: Map<string, EntryRow[]>
  entriesOfSession: Map<string, EntryRow[]>
  /** A session's traces (oldest first) and chat checkpoints. */
  tracesOf: Map<string, TraceRow[]>
  checkpointsOf: Map<string, CheckpointRow[]>
}

const indexes = new WeakMap<StoreDb, StoreIndex>()

export function indexOf(db: StoreDb): StoreIndex {
  const known = indexes.get(db)
  if (known) return known
  const observationsOf = new Map<string, ObservationRow[]>()
  for (const observation of db.observations) push(observationsOf, observation.traceId, observation)
  for (const list of observationsOf.values()) list.sort((a, b) => a.sequence - b.sequence || (a.startedAt ?? 0) - (b.startedAt ?? 0))
  const entries = [...db.entries].sort(byTime)
  const entriesOfScope = new Map<string, EntryRow[]>()
  const entriesOfObservation = new Map<string, EntryRow[]>()
  for (const entry of entries) {
    push(entriesOfScope, entry.scopeId, entry)
    if (entry.observationId) push(entriesOfObservation, entry.observationId, entry)
  }
  const tracesOf = new Map<string, TraceRow[]>()
  for (const trace of [...db.traces].sort((a, b) => (a.startedAt ?? 0) - (b.startedAt ?? 0))) push(tracesOf, trace.sessionId, trace)
  const checkpointsOf = new Map<string, CheckpointRow[]>()
  for (const checkpoint of db.checkpoints) push(checkpointsOf, checkpoint.sessionId, checkpoint)
  const index: StoreIndex = {
    trace: new Map(db.traces.map((trace) => [trace.id, trace])),
    observation: new Map(db.observations.map((observation) => [observation.id, observation])),
    observationsOf,
    scope: new Map(db.scopes.map((scope) => [scope.id, scope])),
    checkpointOfScope: new Map(db.checkpoints.filter((checkpoint) => checkpoint.scopeId).map((checkpoint) => [checkpoint.scopeId as string, checkpoint])),
    entriesOfScope,
    rollbackOfScope: new Map(db.rollbacks.map((rollback) => [rollback.scopeId, rollback])),
    entriesOfObservation,
    entriesOfSession: new Map(),
    tracesOf,
    checkpointsOf
  }
  indexes.set(db, index)
  for (const entry of entries) {
    const session = sessionOfEntry(db, entry)
    if (session) push(index.entriesOfSession, session, entry)
  }
  return index
}

/** The trace of a journal scope (turn scopes also through their checkpoint's session). */
export function traceOfScope(db: StoreDb, scopeId: string): TraceRow | undefined {
  const index = indexOf(db)
  const traceId = index.scope.get(scopeId)?.traceId
  return traceId ? index.trace.get(traceId) : undefined
}

/**
 * The session a journal entry was made in: the session of the tool call that made it, else of
 * its scope's trace, else of the turn its scope belongs to.
 */
export function sessionOfEntry(db: StoreDb, entry: EntryRow): string | null {
  const index = indexOf(db)
  const observation = entry.observationId ? index.observation.get(entry.observationId) : undefined
  const viaObservation = observation ? (observation.sessionId ?? index.trace.get(observation.traceId)?.sessionId) : undefined
  return viaObservation ?? traceOfScope(db, entry.scopeId)?.sessionId ?? index.checkpointOfScope.get(entry.scopeId)?.sessionId ?? null
}

export function byTime<T extends { timestamp: number | undefined }>(a: T, b: T): number {
  return (a.timestamp ?? 0) - (b.timestamp ?? 0)
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}
