import type { Handlers } from '../rpc/dispatcher'
import { appService } from './app-service'
import type { ServiceContext } from './context'
import { branchingHandlers } from './branching-handlers'
import { exportHandlers } from './export-handlers'
import { importHandlers } from './import-handlers'
import { journalService } from './journal-service'
import { recoveryHandlers } from './recovery-handlers'
import { rewindHandlers } from './rewind-handlers'
import { sessionService } from './session-service'
import { treeService } from './tree-service'
import { workspaceService } from './workspace-service'

/**
 * Every contract method, implemented by the services. Each call waits for start-up recovery
 * (ctx.ready): no method reads or writes the journal while an interrupted rewind is being put
 * back, and if recovery failed, every call says why.
 */
export function createHandlers(ctx: ServiceContext): Handlers {
  const handlers = allHandlers(ctx)
  const gated = {} as Record<string, (input: never) => Promise<unknown>>
  for (const [name, handler] of Object.entries(handlers) as [string, (input: never) => unknown][]) {
    gated[name] = async (input) => {
      await ctx.ready
      return handler(input)
    }
  }
  return gated as unknown as Handlers
}

function allHandlers(ctx: ServiceContext): Handlers {
  return {
    ...appService(ctx),
    ...workspaceService(ctx),
    ...sessionService(ctx),
    ...treeService(ctx),
    ...journalService(ctx),
    ...rewindHandlers(ctx),
    ...recoveryHandlers(ctx),
    ...branchingHandlers(ctx),
    ...importHandlers(ctx),
    ...exportHandlers(ctx)
  }
}
