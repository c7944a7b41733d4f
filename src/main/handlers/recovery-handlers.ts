import type { Recovery as RecoveryOutput } from '../../shared/contract'
import type { Recovery } from '../store/repositories/rewinds'
import type { Handlers } from '../rpc/dispatcher'
import type { HandlerContext } from './context'
import { pathRef } from './journal-handlers'

type RecoveryHandlers = Pick<Handlers, 'rewind.recoveries' | 'rewind.dismissRecovery'>

/** What start-up recovery did with interrupted rewinds, for the window and the CLI. */
export function recoveryHandlers(ctx: HandlerContext): RecoveryHandlers {
  const { store, feed } = ctx
  const output = ({ rewind, conflicts }: Recovery): RecoveryOutput => {
    const session = rewind.sessionRowId === null ? null : store.sessions.ref(rewind.sessionRowId)
    return {
      rewindId: rewind.id,
      workspaceId: rewind.workspaceId,
      workspacePath: store.workspaces.get(rewind.workspaceId)?.path ?? '',
      sessionId: session?.id ?? null,
      sessionTitle: session?.title ?? null,
      targetTurn: rewind.targetTurn,
      undoOf: rewind.undoOf,
      recoveredAt: rewind.recoveredAt ?? rewind.finishedAt ?? rewind.createdAt,
      seen: rewind.recoverySeenAt !== null,
      conflicts: conflicts.map((conflict) => ({ ...pathRef(conflict.path), found: conflict.found, saved: conflict.saved, before: conflict.before }))
    }
  }
  return {
    'rewind.recoveries': ({ workspaceId, unseenOnly }) => ({
      items: store.rewinds.recoveries({ ...(workspaceId === undefined ? {} : { workspaceId }), unseenOnly }).map(output)
    }),
    'rewind.dismissRecovery': ({ rewindId }) => {
      const dismissed = store.rewinds.markRecoverySeen(rewindId)
      const rewind = store.rewinds.get(rewindId)
      if (dismissed && rewind) feed.changed(['rewinds'], { workspaceId: rewind.workspaceId })
      return { dismissed }
    }
  }
}
