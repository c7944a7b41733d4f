import { RetraceError, type WorkspaceSummary } from '../../shared/contract'
import { ensureDemoWorkspace } from '../demo/demo-workspace'
import type { Handlers } from '../rpc/dispatcher'
import type { StoredWorkspace } from '../store/repositories/workspaces'
import type { HandlerContext } from './context'
import { followWorkspace } from './import-handlers'
import { folderIsHere, listSubfolders } from '../fs/folder-access'
import { whyNotAWorkspaceFor } from '../journal/protected-folders'
import { openWorkspacePath } from './open-path'
import { listAllWorkspaces } from './workspace-listing'
import { forgetPlan, forgetWorkspace } from './workspace-forget'
import { normalisedFolder } from '../sources/recorded-workspaces'
import { workspaceAgentState } from '../sources/agent-state'

type WorkspaceHandlers = Pick<
  Handlers,
  'workspaces.listRecent' | 'workspaces.listAll' | 'workspaces.setHidden' | 'workspaces.forgetPlan' | 'workspaces.forget' | 'workspaces.open' | 'workspaces.openDemo' | 'workspaces.reopen' | 'workspaces.get' | 'workspaces.agentState' | 'workspaces.pickFolder' | 'folders.list'
>

export function workspaceHandlers(ctx: HandlerContext): WorkspaceHandlers {
  const { store } = ctx
  const requireWorkspace = (id: number): WorkspaceSummary => {
    const workspace = store.workspaces.get(id)
    if (!workspace) throw new RetraceError('NOT_FOUND', `No workspace with id ${id}. Open the folder again from the first screen.`)
    return withFolder(workspace, ctx.imports.environment)
  }

  return {
    'workspaces.listRecent': ({ limit }) => ({ items: store.workspaces.listRecent(limit).map((workspace) => withFolder(workspace, ctx.imports.environment)) }),

    'workspaces.listAll': async ({ refresh }) => {
      const items = await listAllWorkspaces(ctx, { refresh: refresh === 'background' ? 'background' : 'wait' })
      return { items, refreshing: ctx.recorded.isRefreshing() }
    },

    'workspaces.setHidden': ({ path, hidden }) => {
      const changed = store.workspaceListing.setHidden(normalisedFolder(path), hidden)
      if (changed) ctx.feed.changed(['workspaces'])
      return { changed }
    },

    'workspaces.forgetPlan': ({ workspaceId }) => forgetPlan(ctx, workspaceId),

    'workspaces.forget': ({ workspaceId, sessions }) => forgetWorkspace(ctx, workspaceId, sessions),

    'workspaces.open': async ({ path }) => {
      const id = await openWorkspacePath(ctx, path)
      followWorkspace(ctx, id)
      return requireWorkspace(id)
    },

    'workspaces.openDemo': () => {
      const id = ensureDemoWorkspace(ctx)
      return requireWorkspace(id)
    },

    'workspaces.agentState': ({ workspaceId }) => workspaceAgentState(requireWorkspace(workspaceId).path, store.sourceFolders.list(workspaceId), ctx.imports.environment),

    'workspaces.reopen': ({ workspaceId }) => {
      requireWorkspace(workspaceId)
      store.workspaces.touch(workspaceId)
      ctx.feed.changed(['workspaces'], { workspaceId })
      if (!requireWorkspace(workspaceId).isDemo) followWorkspace(ctx, workspaceId)
      return requireWorkspace(workspaceId)
    },

    'workspaces.get': ({ workspaceId }) => requireWorkspace(workspaceId),

    'workspaces.pickFolder': async () => {
      if (!ctx.host.pickFolder) {
        throw new RetraceError('UNSUPPORTED', 'This window has no native folder dialog; type the folder path instead.')
      }
      return { path: await ctx.host.pickFolder() }
    },

    'folders.list': ({ path }) => listSubfolders(path)
  }
}

/** A stored workspace, and whether its folder is on this disk (checked on each request: folders come and go). */
function withFolder(workspace: StoredWorkspace, env: NodeJS.ProcessEnv): WorkspaceSummary {
  return { ...workspace, folderExists: folderIsHere(workspace.path), readOnly: workspace.isDemo ? null : whyNotAWorkspaceFor(workspace.path, env) }
}

export { openWorkspace } from './open-path'
