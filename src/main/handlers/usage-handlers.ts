import { RetraceError } from '../../shared/contract'
import { usageReport } from '../pricing/usage-report'
import type { Handlers } from '../rpc/dispatcher'
import type { HandlerContext } from './context'

type UsageHandlers = Pick<Handlers, 'usage.workspace'>

/** The Usage view: a workspace's tokens and cost by day, model and source. */
export function usageHandlers({ store }: HandlerContext): UsageHandlers {
  return {
    'usage.workspace': ({ workspaceId }) => {
      if (!store.workspaces.get(workspaceId)) {
        throw new RetraceError('NOT_FOUND', `No workspace with id ${workspaceId}. Open the folder again from the first screen.`)
      }
      return usageReport(store.usage.groups(workspaceId))
    }
  }
}
