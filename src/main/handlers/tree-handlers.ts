import { RetraceError } from '../../shared/contract'
import type { Handlers } from '../rpc/dispatcher'
import type { HandlerContext } from './context'
import { viewTakesSubfolders } from './workspace-view'

type TreeHandlers = Pick<Handlers, 'sessions.tree'>

/** The workspace's session graph: every session across sources, their links, and merges. */
export function treeHandlers(ctx: HandlerContext): TreeHandlers {
  const { store } = ctx
  return {
    'sessions.tree': ({ workspaceId }) => {
      const workspace = store.workspaces.get(workspaceId)
      if (!workspace) {
        throw new RetraceError('NOT_FOUND', `No workspace with id ${workspaceId}. Open the folder again from the first screen.`)
      }
      // One read transaction: nodes and merges from the same snapshot, even while a hook in
      // another process is writing.
      const withSubfolders = viewTakesSubfolders(ctx, workspace)
      return store.snapshot(() => ({ nodes: store.tree.nodes(workspaceId, withSubfolders), merges: store.tree.merges(workspaceId, withSubfolders) }))
    }
  }
}
