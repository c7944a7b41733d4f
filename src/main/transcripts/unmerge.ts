import { RetraceError } from '../../shared/contract'
import type { Store } from '../store/store'
import { branchAndParent } from './merge'
import type { Recorder } from './recorder'

/**
 * Undo a branch's latest merge into its parent, in one transaction: delete exactly the marker
 * and messages it appended, put back into context what `replace` took out, write back the
 * parent's counters, usage and checkpoints from before it, and forget the merge (its edge). The
 * branch can be merged again. Only the parent's latest messages can go: a merge followed by
 * more of the parent's own messages is refused, as deleting from the middle would renumber them.
 */
export function unmergeBranch(store: Store, recorder: Recorder, branchId: string) {
  const { branch, parent } = branchAndParent(store, branchId)
  const merge = store.merges.last(branch.rowId, parent.rowId)
  if (!merge) {
    const undone = store.merges.lastUndone(branch.rowId, parent.rowId)
    if (undone) throw new RetraceError('VALIDATION', `The merge of "${branch.title}" into "${parent.title}" was undone (${localTime(undone.undoneAt)}): there is no merge left to undo. Merge the branch again to bring its messages back.`)
    throw new RetraceError('VALIDATION', `Branch "${branch.title}" was never merged into "${parent.title}"; there is nothing to undo.`)
  }
  const undo = merge.undoState
  if (!undo) throw new RetraceError('VALIDATION', `This merge of "${branch.title}" was recorded without what undoing it needs (made by an older Retrace, or read from the agent's files); it cannot be undone.`)
  if (parent.messageCount !== merge.firstSeq + merge.messageCount) {
    throw new RetraceError('VALIDATION', `"${parent.title}" has messages after this merge; undoing it would take messages out of the middle of its transcript, so it is refused.`)
  }
  return recorder.batch(() => {
    store.messages.restoreMergeContext(merge.id)
    const removedMessages = store.messages.deleteFrom(parent.rowId, merge.firstSeq)
    store.checkpoints.deleteAfter(parent.rowId, undo.lastCheckpointTurn)
    store.sessions.saveProgress(parent.rowId, undo.target)
    // Its priced cost from the messages it keeps (an undo state saved before prices has none).
    store.pricing.reprice([parent.rowId])
    store.sessions.setContextStart(parent.rowId, undo.contextStartSeq)
    store.merges.remove(merge.id)
    store.merges.recordUndone({ branchRowId: branch.rowId, intoRowId: parent.rowId, mergedAt: merge.createdAt, undoneAt: Date.now(), messageCount: merge.messageCount })
    store.sessions.setStatus(branch.rowId, undo.branchStatus)
    recorder.announce(parent.workspaceId, parent.id, branch.id)
    return { parentId: parent.id, removedMessages }
  })
}

/** `2026-03-10 14:02`, local time, as the CLI and the window show times. */
function localTime(ms: number): string {
  const d = new Date(ms)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`
}
