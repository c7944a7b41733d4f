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
    const session = rewind.session_id === null ? null : store.sessions.ref(rewind.session_id)
    return {
      rewindId: rewind.id,
      workspaceId: rewind.workspace_id,
      workspacePath: store.workspaces.get(rewind.workspace_id)?.path ?? '',
      sessionId: session?.id ?? null,
      sessionTitle: session?.title ?? null,
      targetTurn: rewind.target_turn,
      undoOf: rewind.undo_of,
      recoveredAt: rewind.recovered_at ?? rewind.finished_at ?? rewind.created_at,
      seen: rewind.recovery_seen_at !== null,
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
      if (dismissed && rewind) feed.changed(['rewinds'], { workspaceId: rewind.workspace_id })
      return { dismissed }
    }
  }
}
