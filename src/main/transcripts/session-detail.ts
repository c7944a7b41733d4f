import type { SessionDetail } from '../../shared/contract'
import { toSessionSummary } from '../store/repositories/sessions'
import type { Store } from '../store/store'

/** One session with its place in the tree and its checkpoints (`sessions.get`, and the export). */
export function sessionDetail(store: Store, sessionId: string): SessionDetail {
  const record = store.sessions.require(sessionId)
  return {
    ...toSessionSummary(record),
    cwd: record.cwd,
    sourceSessionId: record.sourceSessionId,
    forkSeq: record.forkSeq,
    contextStartSeq: record.contextStartSeq,
    parent: store.sessions.ref(record.parentRowId),
    predecessor: store.sessions.ref(record.predecessorRowId),
    successors: store.sessions.successors(record.rowId),
    children: store.sessions.children(record.rowId),
    checkpoints: store.checkpoints.list(record.rowId),
    lastChangedTurn: store.journal.lastChangedTurn(record.rowId)
  }
}
