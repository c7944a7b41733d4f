import { RetraceError } from '../../shared/contract'
import type { Handlers } from '../rpc/dispatcher'
import type { HandlerContext } from './context'

type TreeHandlers = Pick<Handlers, 'sessions.tree'>

/** The workspace's session graph: every session across sources, their links, and merges. */
export function treeHandlers({ store }: HandlerContext): TreeHandlers {
  return {
    'sessions.tree': ({ workspaceId }) => {
      if (!store.workspaces.get(workspaceId)) {
        throw new RetraceError('NOT_FOUND', `No workspace with id ${workspaceId}. Open the folder again from the first screen.`)
      }
      // One read transaction: nodes and merges from the same snapshot, even while a hook in
      // another process is writing.
      return store.snapshot(() => ({ nodes: store.tree.nodes(workspaceId), merges: store.tree.merges(workspaceId) }))
    }
  }
}
