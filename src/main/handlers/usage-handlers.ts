import { RetraceError } from '../../shared/contract'
import { allUsageReport } from '../pricing/all-usage-report'
import { usageReport } from '../pricing/usage-report'
import { USAGE_BUCKET_MS } from '../store/repositories/usage'
import type { Handlers } from '../rpc/dispatcher'
import type { HandlerContext } from './context'
import { viewTakesSubfolders } from './workspace-view'

type UsageHandlers = Pick<Handlers, 'usage.workspace' | 'usage.all'>

/** The Usage views: a workspace's tokens and cost by day, model and source; every workspace's, by workspace too. */
export function usageHandlers(ctx: HandlerContext): UsageHandlers {
  const { store } = ctx
  return {
    'usage.workspace': ({ workspaceId }) => {
      const workspace = store.workspaces.get(workspaceId)
      if (!workspace) {
        throw new RetraceError('NOT_FOUND', `No workspace with id ${workspaceId}. Open the folder again from the first screen.`)
      }
      return usageReport(store.usage.groups(workspaceId, viewTakesSubfolders(ctx, workspace)))
    },
    'usage.all': ({ since, until, workspaceIds }) => {
      if (since !== undefined && until !== undefined && since > until) {
        throw new RetraceError('VALIDATION', `The range starts (${since}) after it ends (${until}).`)
      }
      const groups = store.usage.everyWorkspace({
        sinceMs: since === undefined ? null : localMidnight(since, 0),
        untilMs: until === undefined ? null : localMidnight(until, 1),
        workspaceIds: workspaceIds ?? null
      })
      const paths = new Map<number, string>()
      const workspacePath = (id: number): string => {
        let path = paths.get(id)
        if (path === undefined) paths.set(id, (path = store.workspaces.get(id)?.path ?? `workspace ${id}`))
        return path
      }
      return allUsageReport(groups, { since: since ?? null, until: until ?? null, bucketMs: USAGE_BUCKET_MS, workspacePath })
    }
  }
}

/** The start of a day (`YYYY-MM-DD`) plus `days`, local time, in ms. */
function localMidnight(day: string, days: number): number {
  const [year, month, date] = day.split('-').map(Number)
  return new Date(year ?? 1970, (month ?? 1) - 1, (date ?? 1) + days).getTime()
}
