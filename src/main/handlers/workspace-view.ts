import { whyNotAWorkspaceFor } from '../journal/protected-folders'
import type { HandlerContext } from './context'

/**
 * Whether a workspace's lists, graph, search and usage take in its subfolders' workspaces (R59):
 * yes, but for a home or system folder's read-only workspace, which shows what ran in it rather
 * than every project below it (each has its own workspace).
 */
export function viewTakesSubfolders(ctx: Pick<HandlerContext, 'imports'>, workspace: { path: string; isDemo: boolean }): boolean {
  return workspace.isDemo || whyNotAWorkspaceFor(workspace.path, ctx.imports.environment) === null
}
