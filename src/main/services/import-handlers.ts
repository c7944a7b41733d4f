import { RetraceError } from '../../shared/contract'
import type { Handlers } from '../rpc/dispatcher'
import type { ServiceContext } from './context'

type ImportHandlers = Pick<Handlers, 'imports.run' | 'imports.cancel' | 'imports.lastReport' | 'imports.status'>

export function importHandlers(ctx: ServiceContext): ImportHandlers {
  const requireWorkspace = (workspaceId: number) => {
    if (!ctx.store.workspaces.get(workspaceId)) throw new RetraceError('NOT_FOUND', `No workspace with id ${workspaceId}. Open the folder again from the first screen.`)
  }
  return {
    'imports.run': async ({ workspaceId, sources }) => {
      requireWorkspace(workspaceId)
      return ctx.imports.importWorkspace(workspaceId, sources ? { sources } : {})
    },
    'imports.cancel': ({ workspaceId }) => {
      requireWorkspace(workspaceId)
      return { cancelled: ctx.imports.cancel(workspaceId) }
    },
    'imports.lastReport': ({ workspaceId }) => {
      requireWorkspace(workspaceId)
      return ctx.imports.lastReport(workspaceId)
    },
    'imports.status': ({ workspaceId }) => {
      requireWorkspace(workspaceId)
      return ctx.imports.status(workspaceId)
    }
  }
}

/**
 * An opened workspace is imported and then followed live, so a running agent's new lines show
 * up in the open transcript. A failing background import is logged once per distinct reason;
 * `imports.run` reports the same failure to a caller that asks. A cancelled step
 * (`imports.cancel`) is not a failure: following goes on.
 */
export function followWorkspace(ctx: ServiceContext, workspaceId: number): void {
  const logged = new Set<string>()
  ctx.imports.watch(workspaceId, (error) => {
    const message = error instanceof Error ? error.message : String(error)
    if (logged.has(message)) return
    logged.add(message)
    console.warn(`Retrace: importing the agent histories of workspace ${workspaceId} failed: ${message}`)
  })
}
