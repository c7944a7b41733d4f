import { RetraceError } from '../../shared/contract'
import type { SessionRecord } from '../store/repositories/sessions'
import type { MergeUndoState } from '../store/repositories/session-merges'
import type { Store } from '../store/store'
import type { Recorder } from './recorder'

export type MergeMode = 'append' | 'replace'

/**
 * What a merge would do, for a preview. A branch merged before is merged again only from where
 * the last merge stopped: its earlier messages are in the parent already, and copying them again
 * would count their usage twice. The parent's side starts after that merge's messages too.
 */
export function planMerge(store: Store, branchId: string) {
  const { branch, parent } = branchAndParent(store, branchId)
  const forkSeq = branch.forkSeq ?? 0
  const lastMerge = store.merges.last(branch.rowId, parent.rowId)
  const branchFromSeq = lastMerge?.throughSeq == null ? forkSeq : Math.max(forkSeq, lastMerge.throughSeq + 1)
  const parentFromSeq = lastMerge ? lastMerge.firstSeq + lastMerge.messageCount : forkSeq
  const branchMessages = store.messages.countFrom(branch.rowId, branchFromSeq)
  return {
    branch,
    parent,
    lastMerge,
    branchFromSeq,
    parentFromSeq,
    branchMessages,
    alreadyMerged: store.messages.countFrom(branch.rowId, forkSeq) - branchMessages,
    parentMessagesSinceFork: store.messages.countFrom(parent.rowId, parentFromSeq)
  }
}

/**
 * Merge a branch into its parent from their common ancestor (the fork point). `append` adds
 * the branch's messages after the parent's last one; `replace` does the same and takes the
 * parent's own messages since the fork out of its context transcript. Nothing is deleted: the
 * display transcript keeps every message, with a marker where the merge happened.
 */
export function mergeBranch(store: Store, recorder: Recorder, branchId: string, mode: MergeMode) {
  const plan = planMerge(store, branchId)
  const { branch, parent, branchMessages, lastMerge } = plan
  if (branchMessages === 0 && lastMerge) {
    throw new RetraceError('VALIDATION', `Branch "${branch.title}" is already merged into "${parent.title}"; nothing new since (no messages added after the last merge).`)
  }
  if (branchMessages === 0) throw new RetraceError('VALIDATION', `Branch "${branch.title}" has no messages of its own since it was forked; there is nothing to merge.`)
  const messages = store.messages.rowsFrom(branch.rowId, plan.branchFromSeq)
  return recorder.batch(() => {
    const undo = stateBeforeMerge(store, parent, branch.status)
    const writer = recorder.resume(parent.id)
    const firstSeq = writer.append({ role: 'system', content: markerText(store, plan, mode, messages.length) })
    for (const message of messages) {
      if (message.role === 'compaction_summary') {
        writer.compact(message.content, message.createdAt === null ? {} : { createdAt: message.createdAt })
        continue
      }
      writer.append({
        role: message.role,
        content: message.content,
        ...(message.toolName ? { toolName: message.toolName } : {}),
        ...(message.toolCallId ? { toolCallId: message.toolCallId } : {}),
        ...(message.toolInput !== null ? { toolInput: JSON.parse(message.toolInput) as never } : {}),
        ...(message.isError ? { isError: true } : {}),
        ...(message.model ? { model: message.model } : {}),
        ...(message.inputTokens !== null || message.outputTokens !== null
          ? { usage: { inputTokens: message.inputTokens ?? 0, outputTokens: message.outputTokens ?? 0, cacheReadTokens: message.cacheReadTokens ?? 0, cacheWriteTokens: message.cacheWriteTokens ?? 0, costUsd: message.costUsd } }
          : {}),
        ...(message.createdAt !== null ? { createdAt: message.createdAt } : {})
      })
    }
    writer.closeTurn()
    const leftContext = mode === 'replace' ? store.messages.takeOutOfContext(parent.rowId, plan.parentFromSeq, firstSeq) : []
    const throughSeq = messages.at(-1)?.seq ?? null
    const mergeId = store.merges.add({ branchRowId: branch.rowId, intoRowId: parent.rowId, mode, firstSeq, messageCount: messages.length + 1, createdAt: Date.now(), throughSeq })
    store.merges.saveUndo(mergeId, undo, leftContext)
    store.sessions.setStatus(branch.rowId, 'closed')
    recorder.announce(parent.workspaceId, parent.id, branch.id)
    return { parentId: parent.id, firstSeq, messageCount: messages.length + 1 }
  })
}

/** The target's counters and usage, and the branch's status, as an undo of the merge writes them back. */
function stateBeforeMerge(store: Store, target: SessionRecord, branchStatus: 'active' | 'closed'): MergeUndoState {
  return {
    target: {
      messageCount: target.messageCount,
      turnCount: target.turnCount,
      updatedAt: target.updatedAt,
      ...target.usage,
      pricedCostUsd: target.pricedCostUsd,
      model: target.model
    },
    lastCheckpointTurn: store.checkpoints.list(target.rowId).at(-1)?.turn ?? 0,
    contextStartSeq: target.contextStartSeq,
    branchStatus
  }
}

function markerText(store: Store, plan: ReturnType<typeof planMerge>, mode: MergeMode, count: number): string {
  const what = `${count} message${count === 1 ? '' : 's'}`
  if (plan.lastMerge) return `Merged branch "${plan.branch.title}" again (${mode}): ${what} added since the last merge.`
  return `Merged branch "${plan.branch.title}" (${mode}): ${what} from after turn ${store.messages.lastTurnBefore(plan.branch.rowId, plan.branchFromSeq)}.`
}

export function branchAndParent(store: Store, branchId: string) {
  const branch = store.sessions.require(branchId)
  if (branch.kind !== 'branch' || branch.parentRowId === null) {
    throw new RetraceError('VALIDATION', `"${branch.title}" is not a branch of another session, so it has no parent to merge into.`)
  }
  const parentRef = store.sessions.ref(branch.parentRowId)
  if (!parentRef) throw new RetraceError('NOT_FOUND', `The parent of "${branch.title}" no longer exists.`)
  return { branch, parent: store.sessions.require(parentRef.id) }
}
