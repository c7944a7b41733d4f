import { isImportSource, RetraceError } from '../../shared/contract'
import type { Handlers } from '../rpc/dispatcher'
import type { SourceName } from '../sources/adapter'
import { SOURCE_ADAPTERS } from '../sources/registry'
import { describeSource } from '../sources/source-info'
import type { HandlerContext } from './context'
import { resolveReadableFolder } from '../fs/folder-access'

type ImportHandlers = Pick<
  Handlers,
  'imports.run' | 'imports.cancel' | 'imports.lastReport' | 'imports.status' | 'imports.unread' | 'sources.list' | 'workspaces.sourceFolders' | 'workspaces.addSourceFolder' | 'workspaces.removeSourceFolder'
>

export function importHandlers(ctx: HandlerContext): ImportHandlers {
  const requireWorkspace = (workspaceId: number) => {
    if (!ctx.store.workspaces.get(workspaceId)) throw new RetraceError('NOT_FOUND', `No workspace with id ${workspaceId}. Open the folder again from the first screen.`)
  }
  const folders = ctx.store.sourceFolders
  return {
    'sources.list': () => ({ items: SOURCE_ADAPTERS.map((adapter) => describeSource(adapter, ctx.imports.environment)) }),
    'workspaces.sourceFolders': ({ workspaceId }) => {
      requireWorkspace(workspaceId)
      return { items: folders.list(workspaceId).map(({ id, source, path, addedAt }) => ({ id, source, path, addedAt })) }
    },
    'workspaces.addSourceFolder': async ({ workspaceId, source, path }) => {
      requireWorkspace(workspaceId)
      const adapter = SOURCE_ADAPTERS.find((candidate) => candidate.name === source)
      if (!adapter) throw new RetraceError('VALIDATION', `Unknown source "${source}": one of ${SOURCE_ADAPTERS.map((candidate) => candidate.name).join(', ')}.`)
      const folder = resolveReadableFolder(path)
      const added = folders.add(workspaceId, source, folder)
      const report = await ctx.imports.importWorkspace(workspaceId, { sources: [source as SourceName] })
      const elsewhere = await ctx.imports.spreadSourceFolder(workspaceId, adapter, folder)
      return { folder: { id: added.id, source: added.source, path: added.path, addedAt: added.addedAt }, report, elsewhere }
    },
    'workspaces.removeSourceFolder': ({ workspaceId, folderId }) => {
      requireWorkspace(workspaceId)
      return { removed: folders.remove(workspaceId, folderId) }
    },
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
    },
    'imports.unread': ({ workspaceId }) => {
      if (workspaceId !== undefined) requireWorkspace(workspaceId)
      const tallies = workspaceId === undefined ? ctx.store.unreadRecords.everywhere() : ctx.store.unreadRecords.ofWorkspace(workspaceId)
      return { items: tallies.flatMap(({ source, ...tally }) => (isImportSource(source) ? [{ source, ...tally }] : [])) }
    }
  }
}

/**
 * An opened workspace is imported and then followed live, so a running agent's new lines show
 * up in the open transcript. A failing background import is logged once per distinct reason;
 * `imports.run` reports the same failure to a caller that asks. A cancelled step
 * (`imports.cancel`) is not a failure: following goes on.
 */
export function followWorkspace(ctx: HandlerContext, workspaceId: number): void {
  const logged = new Set<string>()
  ctx.imports.watch(workspaceId, (error) => {
    const message = error instanceof Error ? error.message : String(error)
    if (logged.has(message)) return
    logged.add(message)
    console.warn(`Retrace: importing the agent histories of workspace ${workspaceId} failed: ${message}`)
  })
}
