import type { Handlers } from '../rpc/dispatcher'
import { agentsHandlers } from './agents-handlers'
import { appHandlers } from './app-handlers'
import type { HandlerContext } from './context'
import { blameHandlers } from './blame-handlers'
import { branchingHandlers } from './branching-handlers'
import { exportHandlers } from './export-handlers'
import { importHandlers } from './import-handlers'
import { journalHandlers } from './journal-handlers'
import { recoveryHandlers } from './recovery-handlers'
import { retentionHandlers } from './retention-handlers'
import { rewindHandlers } from './rewind-handlers'
import { sessionHandlers } from './session-handlers'
import { treeHandlers } from './tree-handlers'
import { usageHandlers } from './usage-handlers'
import { workspaceHandlers } from './workspace-handlers'

/**
 * Every contract method, implemented by the services. Each call waits for start-up recovery
 * (ctx.ready): no method reads or writes the journal while an interrupted rewind is being put
 * back, and if recovery failed, every call says why.
 */
export function createHandlers(ctx: HandlerContext): Handlers {
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

function allHandlers(ctx: HandlerContext): Handlers {
  return {
    ...appHandlers(ctx),
    ...workspaceHandlers(ctx),
    ...sessionHandlers(ctx),
    ...treeHandlers(ctx),
    ...journalHandlers(ctx),
    ...blameHandlers(ctx),
    ...rewindHandlers(ctx),
    ...recoveryHandlers(ctx),
    ...branchingHandlers(ctx),
    ...importHandlers(ctx),
    ...retentionHandlers(ctx),
    ...exportHandlers(ctx),
    ...usageHandlers(ctx),
    ...agentsHandlers(ctx)
  }
}
