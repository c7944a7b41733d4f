import { indexOf, traceOfScope } from './links'
import type { CheckpointRow, RollbackRow, SessionRow, StoreDb, TraceRow } from './store-db'

/** A turn y-agent undid: its trace (the only place its messages are left), checkpoint, journal scope and rollback. */
export interface UndoneTurn {
  trace: TraceRow | undefined
  checkpoint: CheckpointRow | undefined
  scopeId: string | null
  rollback: RollbackRow | undefined
}

/**
 * The turns y-agent undid in a session: invalidated checkpoints (`ChatCheckpointManager::
 * rollback_to` truncates both transcripts to the turn's start and invalidates its checkpoint), and
 * rolled-back journal scopes no checkpoint names (a store without its checkpoints table).
 */
export function undoneTurns(session: SessionRow, db: StoreDb): UndoneTurn[] {
  const index = indexOf(db)
  const traces = index.tracesOf.get(session.id) ?? []
  const turns: UndoneTurn[] = []
  const scopes = new Set<string>()
  for (const checkpoint of index.checkpointsOf.get(session.id) ?? []) {
    if (!checkpoint.invalidated) continue
    // Its scope's trace; a turn that touched no file has no scope, but its trace starts with it.
    const trace = (checkpoint.scopeId ? traceOfScope(db, checkpoint.scopeId) : undefined) ?? traces.find((candidate) => candidate.startedAt === checkpoint.createdAt)
    if (checkpoint.scopeId) scopes.add(checkpoint.scopeId)
    turns.push({ trace, checkpoint, scopeId: checkpoint.scopeId, rollback: rollbackOf(db, checkpoint.scopeId, checkpoint.id) })
  }
  for (const scope of db.scopes) {
    if (scope.status !== 'rolled_back' || scopes.has(scope.id)) continue
    const trace = traceOfScope(db, scope.id)
    const owner = trace?.sessionId ?? index.checkpointOfScope.get(scope.id)?.sessionId ?? index.rollbackOfScope.get(scope.id)?.sessionId
    if (owner !== session.id) continue
    turns.push({ trace, checkpoint: undefined, scopeId: scope.id, rollback: rollbackOf(db, scope.id, null) })
  }
  return turns
}

function rollbackOf(db: StoreDb, scopeId: string | null, checkpointId: string | null): RollbackRow | undefined {
  return (scopeId ? indexOf(db).rollbackOfScope.get(scopeId) : undefined) ?? db.rollbacks.find((rollback) => checkpointId !== null && rollback.checkpointId === checkpointId)
}
