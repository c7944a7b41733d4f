import type { PathKey } from '../journal/paths'
import { keyOf } from '../journal/paths'
import type { RewindResult } from '../journal/rewind/rewind-service'
import type { RewindPlan } from '../journal/rewind/plan'
import type { ConflictChoice } from '../journal/rewind/apply'
import type { Handlers } from '../rpc/dispatcher'
import type { ServiceContext } from './context'
import { pathFromId, pathRef } from './journal-service'

type RewindHandlers = Pick<Handlers, 'rewind.plan' | 'rewind.apply' | 'rewind.planUndo' | 'rewind.undo' | 'rewind.list'>

const planOutput = (plan: RewindPlan) => ({
  token: plan.token,
  items: plan.items.map((item) => ({
    ...pathRef(item.path),
    action: item.action,
    conflict: item.conflict,
    refused: item.refused,
    currentSize: item.current && 'size' in item.current ? item.current.size : null,
    targetSize: item.target?.size ?? null
  }))
})

/** A rewind's outcome as the contract carries it. */
export const resultOutput = (result: RewindResult) => ({
  rewindId: result.rewindId,
  changed: result.steps.map((step) => ({ ...pathRef(step.path), action: step.kind, keptAs: step.keptAs ? pathRef(step.keptAs).path : null })),
  skipped: result.skipped.map((item) => pathRef(item.path)),
  refused: result.refused.map((item) => ({ ...pathRef(item.path), reason: item.refused ?? '' }))
})

const choiceMap = (choices: { pathId: string; choice: ConflictChoice }[]) =>
  new Map<PathKey, ConflictChoice>(choices.map(({ pathId, choice }) => [keyOf(pathFromId(pathId)), choice]))

export function rewindHandlers(ctx: ServiceContext): RewindHandlers {
  const { rewinds, store, feed } = ctx
  const announce = (workspaceId: number, sessionId?: string) => feed.changed(['files', 'rewinds', 'checkpoints'], { workspaceId, ...(sessionId ? { sessionIds: [sessionId] } : {}) })
  const progress = (sessionId: string | null) => (done: number, total: number, path: string) =>
    feed.publish({ name: 'rewind.progress', payload: { sessionId, done, total, path } })

  return {
    'rewind.plan': async ({ sessionId, turn }) => {
      await ctx.ready
      const { plan } = await rewinds.planTurn(sessionId, turn)
      // A missing snapshot invalidates the checkpoint (see RewindService.invalidate): show it.
      if (plan.items.some((item) => item.snapshotMissing)) feed.changed(['checkpoints'], { workspaceId: store.sessions.require(sessionId).workspaceId, sessionIds: [sessionId] })
      return planOutput(plan)
    },

    'rewind.apply': async ({ sessionId, turn, token, choices, defaultChoice }) => {
      await ctx.ready
      const session = store.sessions.require(sessionId)
      try {
        return resultOutput(await rewinds.applyTurn(sessionId, turn, { token, choices: choiceMap(choices), defaultChoice, onProgress: progress(sessionId) }))
      } finally {
        announce(session.workspaceId, sessionId)
      }
    },

    'rewind.planUndo': async ({ rewindId }) => {
      await ctx.ready
      return planOutput((await rewinds.planUndo(rewindId)).plan)
    },

    'rewind.undo': async ({ rewindId, token, choices, defaultChoice }) => {
      await ctx.ready
      const { rewind } = await rewinds.planUndo(rewindId)
      const session = rewind.session_id === null ? null : store.sessions.ref(rewind.session_id)
      try {
        return resultOutput(await rewinds.undo(rewindId, { token, choices: choiceMap(choices), defaultChoice, onProgress: progress(session?.id ?? null) }))
      } finally {
        announce(rewind.workspace_id, session?.id)
      }
    },

    'rewind.list': ({ sessionId }) => {
      const session = store.sessions.require(sessionId)
      return {
        items: rewinds.rewindsOfSession(session.rowId).map((row) => ({
          id: row.id,
          targetTurn: row.target_turn,
          undoOf: row.undo_of,
          status: row.status,
          createdAt: row.created_at,
          finishedAt: row.finished_at,
          changed: (JSON.parse(row.summary) as { changed?: number }).changed ?? 0
        }))
      }
    }
  }
}
