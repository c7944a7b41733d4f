import { RetraceError } from '../../shared/contract'
import { usageReport } from '../pricing/usage-report'
import type { Handlers } from '../rpc/dispatcher'
import type { HandlerContext } from './context'
import { viewTakesSubfolders } from './workspace-view'

type UsageHandlers = Pick<Handlers, 'usage.workspace'>

/** The Usage view: a workspace's tokens and cost by day, model and source. */
export function usageHandlers(ctx: HandlerContext): UsageHandlers {
  const { store } = ctx
  return {
    'usage.workspace': ({ workspaceId }) => {
      const workspace = store.workspaces.get(workspaceId)
      if (!workspace) {
        throw new RetraceError('NOT_FOUND', `No workspace with id ${workspaceId}. Open the folder again from the first screen.`)
      }
      return usageReport(store.usage.groups(workspaceId, viewTakesSubfolders(ctx, workspace)))
    }
  }
}
