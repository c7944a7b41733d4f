import { isAbsolute, relative, resolve, sep } from 'node:path'
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
  return (await deepestKnownWorkspace(call, [file])) ?? resolve('.')
}

/** The deepest workspace Retrace knows that holds one of `paths` (absolute: a file, and maybe its real path). */
export async function deepestKnownWorkspace(call: CliCall, paths: readonly string[]): Promise<string | undefined> {
  const known = (await call('workspaces.listRecent', { limit: 200 })).items.map((workspace) => workspace.path)
  return known.filter((folder) => paths.some((path) => path.startsWith(`${folder}${sep}`))).sort((a, b) => b.length - a.length)[0]
}

/** FILE inside `root`, as the journal names it (relative, `/`-separated). */
export function relativeTo(root: string, file: string): string {
  const inside = relative(root, resolve(expandHome(file)))
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : file
}
