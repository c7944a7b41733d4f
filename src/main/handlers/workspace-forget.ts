import { RetraceError, type ForgetPlan } from '../../shared/contract'
import type { HandlerContext } from './context'

/** What forgetting the workspace would remove: its sessions (warm-ups too), and whether it is hidden. */
export function forgetPlan(ctx: HandlerContext, workspaceId: number): ForgetPlan {
  const workspace = ctx.store.workspaces.get(workspaceId)
  if (!workspace) throw new RetraceError('NOT_FOUND', `No workspace with id ${workspaceId}: it may have been forgotten already.`)
  const { all, listed } = ctx.store.workspaceListing.sessionsOf(workspaceId)
  return { workspaceId, path: workspace.path, sessions: all, warmups: all - listed, hidden: ctx.store.workspaceListing.hidden().has(workspace.path) }
}

/**
 * Remove the workspace and what the store holds of it, once the user confirmed `sessions` (the
 * plan's count): a different count now (an import added some) asks them again. The agents' own
 * files are never touched. Refused while an import of it runs: it would write into what goes.
 */
export function forgetWorkspace(ctx: HandlerContext, workspaceId: number, confirmedSessions: number): { removedSessions: number } {
  const plan = forgetPlan(ctx, workspaceId)
  if (plan.sessions !== confirmedSessions) {
    throw new RetraceError('CONFLICT', `The workspace holds ${plan.sessions} sessions now, not the ${confirmedSessions} confirmed: nothing was removed. Ask again.`)
  }
  if (ctx.imports.status(workspaceId).state === 'running') throw new RetraceError('CONFLICT', 'An import of this workspace is under way: nothing was removed. Try again when it ends.')
  ctx.store.workspaceListing.forget(workspaceId)
  ctx.feed.changed(['workspaces', 'sessions'], { workspaceId })
  return { removedSessions: plan.sessions }
}
