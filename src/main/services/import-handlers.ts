import { RetraceError } from '../../shared/contract'
import type { Handlers } from '../rpc/dispatcher'
import type { ServiceContext } from './context'

export function importHandlers(ctx: ServiceContext): Pick<Handlers, 'imports.run'> {
  return {
    'imports.run': async ({ workspaceId, sources }) => {
      if (!ctx.store.workspaces.get(workspaceId)) throw new RetraceError('NOT_FOUND', `No workspace with id ${workspaceId}.`)
      return ctx.imports.importWorkspace(workspaceId, sources ? { sources } : {})
    }
  }
}

/**
 * An opened workspace is imported and then followed live, so a running agent's new lines show
 * up in the open transcript. A failing background import is logged once per distinct reason;
 * `imports.run` reports the same failure to a caller that asks.
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
