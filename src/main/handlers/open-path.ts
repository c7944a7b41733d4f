import { statSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { RetraceError } from '../../shared/contract'
import { whyNotAWorkspaceFor } from '../journal/protected-folders'
import { discoverRecordedWorkspaces } from '../sources/recorded-workspaces'
import type { HandlerContext } from './context'
import { expandHome, folderName, resolveReadableFolder } from '../fs/folder-access'

/**
 * Open a folder as a workspace by path. A folder that is here is opened as always (its real path).
 * One that is not (deleted, moved, or a history copied from another computer) opens as written,
 * normalised, when Retrace already holds it as a workspace or an agent's history records it as
 * a session's folder: its history is browsable, and a rewind there is refused. A path nobody
 * recorded is an error naming it.
 */
export async function openWorkspacePath(ctx: HandlerContext, requested: string): Promise<number> {
  if (requested.includes('\0')) throw new RetraceError('VALIDATION', 'The folder path contains a NUL character.')
  const path = resolve(expandHome(requested.trim()))
  if (!isMissing(path)) return openHereFolder(ctx, path)
  const known = ctx.store.workspaces.getByPath(path)
  if (known) {
    ctx.store.workspaces.touch(known.id)
    ctx.feed.changed(['workspaces'], { workspaceId: known.id })
    return known.id
  }
  if (!(await discoverRecordedWorkspaces(ctx.imports.environment)).has(path)) {
    throw new RetraceError('PATH_NOT_FOUND', `There is no folder at ${path}, and no agent history records it. Check the path, or choose another folder (\`retrace workspaces\` lists the recorded ones).`)
  }
  const refusal = whyNotAWorkspaceFor(path, ctx.imports.environment)
  if (refusal && !isAbsolute(path)) throw new RetraceError('VALIDATION', refusal)
  const id = ctx.store.workspaces.open(path, folderName(path))
  ctx.feed.changed(['workspaces'], { workspaceId: id })
  return id
}

/** Nothing is at the path (a permission problem is not "missing": opening says so). */
function isMissing(path: string): boolean {
  try {
    statSync(path)
    return false
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOENT' || code === 'ENOTDIR'
  }
}

/**
 * A folder that is here, opened by the user (the window, `retrace import PATH`): as a workspace,
 * or, for a home or system folder that Retrace holds already or an agent's history records
 * (agents in containers record `/root`), as a read-only one: its sessions browsable, never
 * rewound (rewind-service.ts), nothing journaled (record-writer.ts). Nobody's such folder is refused.
 */
async function openHereFolder(ctx: HandlerContext, requestedPath: string): Promise<number> {
  const path = resolveReadableFolder(requestedPath)
  const refusal = whyNotAWorkspaceFor(path, ctx.imports.environment)
  if (!refusal) return openWorkspace(ctx, path)
  if (!ctx.store.workspaces.getByPath(path) && !(await discoverRecordedWorkspaces(ctx.imports.environment)).has(path)) {
    throw new RetraceError('VALIDATION', `${refusal} No agent history records it either: there is nothing to browse there.`)
  }
  const id = ctx.store.workspaces.open(path, folderName(path))
  ctx.feed.changed(['workspaces'], { workspaceId: id })
  return id
}

/** Validate a folder that must be here and remember it as a workspace (rewinds and checkpoints go there); returns its id. */
export function openWorkspace(ctx: HandlerContext, requestedPath: string): number {
  const path = resolveReadableFolder(requestedPath)
  const refusal = whyNotAWorkspaceFor(path, ctx.imports.environment)
  if (refusal) throw new RetraceError('VALIDATION', refusal)
  const id = ctx.store.workspaces.open(path, folderName(path))
  ctx.feed.changed(['workspaces'], { workspaceId: id })
  return id
}
