import { isAbsolute, relative, resolve } from 'node:path'
import { expandHome } from '../fs/folder-access'
import type { CliCall } from './call'

/**
 * The workspace a FILE argument belongs to, and its path inside it (what `blame` and `restore`
 * take). The workspace: `--workspace` if given, else the deepest one Retrace knows that holds
 * FILE, else the current folder. FILE is taken relative to the current folder when it lies inside
 * the workspace, else relative to the workspace.
 */
export async function workspaceFile(call: CliCall, file: string, workspace: string | undefined): Promise<{ workspaceId: number; root: string; path: string }> {
  const folder = workspace !== undefined ? resolve(expandHome(workspace)) : await knownWorkspaceOf(call, resolve(expandHome(file)))
  const opened = await call('workspaces.open', { path: folder })
  return { workspaceId: opened.id, root: opened.path, path: relativeTo(opened.path, file) }
}

async function knownWorkspaceOf(call: CliCall, file: string): Promise<string> {
  const known = (await call('workspaces.listRecent', { limit: 200 })).items.map((workspace) => workspace.path)
  const holding = known.filter((path) => file.startsWith(`${path}/`)).sort((a, b) => b.length - a.length)
  return holding[0] ?? resolve('.')
}

/** FILE inside `root`, as the journal names it (relative, `/`-separated). */
export function relativeTo(root: string, file: string): string {
  const inside = relative(root, resolve(expandHome(file)))
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : file
}
