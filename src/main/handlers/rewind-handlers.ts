import { RetraceError } from '../../shared/contract'
import { checkRelPath, keyOf, type PathKey } from '../fs/paths'
import type { RewindResult } from '../journal/rewind/rewind-service'
import type { RewindPlan } from '../journal/rewind/plan'
import type { WorkspaceFs } from '../journal/workspace-fs'
import type { ConflictChoice } from '../journal/rewind/apply'
import type { Handlers } from '../rpc/dispatcher'
import type { HandlerContext } from './context'
import { pathFromId, pathRef } from './journal-handlers'

type RewindHandlers = Pick<
  Handlers,
  'rewind.plan' | 'rewind.apply' | 'rewind.fileDiff' | 'rewind.planVersion' | 'rewind.applyVersion' | 'rewind.watchPreview' | 'rewind.unwatchPreview' | 'rewind.planUndo' | 'rewind.undo' | 'rewind.list'
>

/** A preview as the contract carries it: per path what happens, its kind, mode and link target, and where. */
export const planOutput = ({ plan, fs }: { plan: RewindPlan; fs: WorkspaceFs }) => ({
  token: plan.token,
  root: fs.root.toString('utf8'),
  items: plan.items.map((item) => ({
    ...pathRef(item.path),
    action: item.action,
    conflict: item.conflict,
    refused: item.refused,
    currentSize: item.current && 'size' in item.current ? item.current.size : null,
    targetSize: item.target?.size ?? null,
    currentKind: item.current?.kind ?? null,
    targetKind: item.target?.kind ?? null,
    currentMode: item.current?.kind === 'file' ? item.current.mode & 0o7777 : null,
    targetMode: item.target?.kind === 'file' ? item.target.mode & 0o7777 : null,
    linkTarget: item.linkTarget ? item.linkTarget.toString('utf8') : null,
    needsConfirmation: item.needsConfirmation
  }))
})

/** The paths a request names by id (`rewind.apply`'s `confirmed` and `excluded`), as keys. */
export const confirmedSet = (pathIds: string[]): Set<PathKey> => new Set(pathIds.map((pathId) => keyOf(pathFromId(pathId))))

/** A rewind's outcome as the contract carries it. */
export const resultOutput = (result: RewindResult) => ({
  rewindId: result.rewindId,
  changed: result.steps.map((step) => ({ ...pathRef(step.path), action: step.kind, keptAs: step.keptAs ? pathRef(step.keptAs).path : null })),
  skipped: result.skipped.map((item) => pathRef(item.path)),
  refused: result.refused.map((item) => ({ ...pathRef(item.path), reason: item.refused ?? '' })),
  keptDuring: result.keptDuring.map((copy) => ({ ...pathRef(copy.path), keptAs: pathRef(copy.keptAs).path, hash: copy.saved?.hash ?? null }))
})

const choiceMap = (choices: { pathId: string; choice: ConflictChoice }[]) =>
  new Map<PathKey, ConflictChoice>(choices.map(({ pathId, choice }) => [keyOf(pathFromId(pathId)), choice]))

export function rewindHandlers(ctx: HandlerContext): RewindHandlers {
  const { rewinds, store, feed, previewWatches } = ctx
  const announce = (workspaceId: number, sessionId?: string) => feed.changed(['files', 'rewinds', 'checkpoints'], { workspaceId, ...(sessionId ? { sessionIds: [sessionId] } : {}) })
  const progress = (sessionId: string | null) => (done: number, total: number, path: string) =>
    feed.publish({ name: 'rewind.progress', payload: { sessionId, done, total, path } })

  return {
    'rewind.plan': async ({ sessionId, turn }) => {
      const planned = await rewinds.planTurn(sessionId, turn)
      // A missing snapshot invalidates the checkpoint (see RewindService.invalidate): show it.
      if (planned.plan.items.some((item) => item.snapshotMissing)) feed.changed(['checkpoints'], { workspaceId: store.sessions.require(sessionId).workspaceId, sessionIds: [sessionId] })
      return planOutput(planned)
    },

    'rewind.apply': async ({ sessionId, turn, token, choices, defaultChoice, confirmed, excluded }) => {
      const session = store.sessions.require(sessionId)
      try {
        return resultOutput(await rewinds.applyTurn(sessionId, turn, { token, choices: choiceMap(choices), defaultChoice, confirmed: confirmedSet(confirmed), excluded: confirmedSet(excluded), onProgress: progress(sessionId) }))
      } finally {
        announce(session.workspaceId, sessionId)
      }
    },

    'rewind.fileDiff': ({ of, pathId, side }) =>
      rewinds.diffOfPath(
        of.kind === 'turn' ? { sessionId: of.sessionId, turn: of.turn } : of.kind === 'undo' ? { rewindId: of.rewindId } : { workspaceId: of.workspaceId, hash: of.hash },
        pathFromId(pathId),
        side
      ),

    'rewind.watchPreview': ({ workspaceId, pathIds, watchId }) => {
      const workspace = store.workspaces.get(workspaceId)
      if (!workspace) throw new RetraceError('NOT_FOUND', `No workspace with id ${workspaceId}.`)
      // Only paths inside the workspace: a watch reads nothing, but it must not reach outside either.
      return previewWatches.watch(workspace.path, pathIds.map((pathId) => checkRelPath(pathFromId(pathId))), watchId)
    },

    'rewind.unwatchPreview': ({ watchId }) => ({ closed: previewWatches.unwatch(watchId) }),

    'rewind.planVersion': async ({ workspaceId, pathId, hash }) => planOutput(await rewinds.planVersion(workspaceId, pathFromId(pathId), hash)),

    'rewind.applyVersion': async ({ workspaceId, pathId, hash, token, choices, defaultChoice, confirmed }) => {
      try {
        return resultOutput(await rewinds.applyVersion(workspaceId, pathFromId(pathId), hash, { token, choices: choiceMap(choices), defaultChoice, confirmed: confirmedSet(confirmed), onProgress: progress(null) }))
      } finally {
        announce(workspaceId)
      }
    },

    'rewind.planUndo': async ({ rewindId }) => {
      return planOutput(await rewinds.planUndo(rewindId))
    },

    'rewind.undo': async ({ rewindId, token, choices, defaultChoice, confirmed, excluded }) => {
      const { rewind } = await rewinds.planUndo(rewindId)
      const session = rewind.sessionRowId === null ? null : store.sessions.ref(rewind.sessionRowId)
      try {
        return resultOutput(await rewinds.undo(rewindId, { token, choices: choiceMap(choices), defaultChoice, confirmed: confirmedSet(confirmed), excluded: confirmedSet(excluded), onProgress: progress(session?.id ?? null) }))
      } finally {
        announce(rewind.workspaceId, session?.id)
      }
    },

    'rewind.list': ({ sessionId }) => {
      const session = store.sessions.require(sessionId)
      return {
        items: rewinds.rewindsOfSession(session.rowId).map((row) => ({
          id: row.id,
          targetTurn: row.targetTurn,
          undoOf: row.undoOf,
          status: row.status,
          createdAt: row.createdAt,
          finishedAt: row.finishedAt,
          changed: (JSON.parse(row.summary) as { changed?: number }).changed ?? 0
        }))
      }
    }
  }
}
