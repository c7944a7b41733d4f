import type { Handlers } from '../rpc/dispatcher'
import { appService } from './app-service'
import type { ServiceContext } from './context'
import { branchingHandlers } from './branching-handlers'
import { exportHandlers } from './export-handlers'
import { importHandlers } from './import-handlers'
import { journalService } from './journal-service'
import { rewindHandlers } from './rewind-handlers'
import { sessionService } from './session-service'
import { treeService } from './tree-service'
import { workspaceService } from './workspace-service'

/** Every contract method, implemented by the services. */
export function createHandlers(ctx: ServiceContext): Handlers {
  return {
    ...appService(ctx),
    ...workspaceService(ctx),
    ...sessionService(ctx),
    ...treeService(ctx),
    ...journalService(ctx),
    ...rewindHandlers(ctx),
    ...branchingHandlers(ctx),
    ...importHandlers(ctx),
    ...exportHandlers(ctx)
  }
}
