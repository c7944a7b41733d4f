import { basename } from 'node:path'
import { whyNotAWorkspaceFor } from '../journal/protected-folders'
import type { Store } from '../store/store'
import type { HistoryFile, SourceAdapter } from './adapter'
import { isInsideWorkspace, normalisedFolder } from './recorded-workspaces'

export interface Found {
  adapter: SourceAdapter
  file: HistoryFile
}

export interface OwnedFiles<T extends Found> {
  workspace: { id: number; path: string }
  files: T[]
}

/**
 * Which workspace stores each session a workspace's discovery found (R59). A session is stored
 * once: a workspace's discovery finds the sessions of its subfolders too, and importing them
 * there as well would make a second copy of each (search hits twice, usage counted twice, two
 * journals of one history). So a session tree (a main session and its sub-agents) goes to
 *   1. the workspace that already holds its import (its journal and its links are there): the
 *      opened one, a subfolder's, or the enclosing folder's discovery placed it in (a Copilot CLI
 *      session started in a repository's subfolder belongs at its root);
 *   2. else the workspace of the folder it ran in (its recorded cwd), when that is a subfolder of
 *      the opened one (remembered, not opened, as `import --all` does), unless that folder can
 *      never be a workspace;
 *   3. else the opened workspace (no cwd recorded, the folder itself, or a moved folder's
 *      sessions found by the agent's project folder).
 * The opened workspace shows its subfolders' sessions as a view (sessions.list, tree, search, usage).
 */
export function filesByOwner<T extends Found>(store: Store, env: NodeJS.ProcessEnv, opened: { id: number; path: string }, found: readonly T[]): OwnedFiles<T>[] {
  // An enclosing folder's copy is looked at only where discovery places the session there: one
  // stored there before R59 of a session that ran in the opened folder is folded by the import
  // into the opened folder (SessionFoldRepository).
  const related = store.workspaces.listAll().filter((w) => w.id !== opened.id && isInsideWorkspace(w.path, opened.path))
  const holding = (entries: readonly T[], cwd: string | null) => {
    // The workspace of the folder discovery placed the session in, when that encloses the opened
    // one (Copilot CLI places a session started in a repository's subfolder at its root).
    const placed = cwd === null ? undefined : store.workspaces.getByPath(normalisedFolder(cwd))
    const enclosing = placed && placed.id !== opened.id && isInsideWorkspace(opened.path, placed.path) ? [placed] : []
    for (const candidate of [opened, ...related, ...enclosing]) {
      if (entries.some(({ adapter, file }) => store.importFiles.get(candidate.id, adapter.name, file.path) !== undefined)) return { id: candidate.id, path: candidate.path }
    }
    return null
  }
  const byOwner = new Map<number, OwnedFiles<T>>()
  for (const tree of sessionTrees(found)) {
    const subfolder = subfolderRanIn(env, opened, tree.cwd)
    // A snapshot store may hold several folders' sessions under one path (OpenCode's database):
    // only one that would go to a subfolder is looked for among the other workspaces' imports.
    const lookForImport = tree.entries[0]?.adapter.kind !== 'snapshot' || subfolder !== null
    const owner = (lookForImport ? holding(tree.entries, tree.cwd) : null) ?? (subfolder ? workspaceAt(store, subfolder) : opened)
    const owned = byOwner.get(owner.id) ?? { workspace: owner, files: [] }
    owned.files.push(...tree.entries)
    byOwner.set(owner.id, owned)
  }
  return [...byOwner.values()]
}

/** The subfolder of the opened folder a session ran in, or null when it ran in the folder itself, outside it, or in one no workspace may be. */
function subfolderRanIn(env: NodeJS.ProcessEnv, opened: { path: string }, cwd: string | null): string | null {
  if (cwd === null) return null
  const folder = normalisedFolder(cwd)
  if (folder === normalisedFolder(opened.path) || !isInsideWorkspace(folder, opened.path)) return null
  return whyNotAWorkspaceFor(folder, env) ? null : folder
}

/** The folder's workspace, remembered (not opened) when it is new, as `import --all` does. */
function workspaceAt(store: Store, folder: string): { id: number; path: string } {
  const id = store.workspaces.getByPath(folder)?.id ?? store.workspaces.remember(folder, basename(folder) || folder)
  return { id, path: folder }
}

/** The found files by session tree: a main session with its sub-agents (a sub-agent goes where its session goes), with the folder the main one recorded. */
function sessionTrees<T extends Found>(found: readonly T[]): { entries: T[]; cwd: string | null }[] {
  const trees = new Map<string, { entries: T[]; cwd: string | null }>()
  for (const entry of found) {
    const { file } = entry
    const root = file.role === 'main' ? file.sessionId : (file.rootSessionId ?? file.parentSessionId ?? file.sessionId)
    const key = `${entry.adapter.name}\0${root}`
    const tree = trees.get(key) ?? { entries: [], cwd: null }
    tree.entries.push(entry)
    if (file.role === 'main' || tree.cwd === null) tree.cwd = file.role === 'main' ? file.cwd : (tree.cwd ?? file.cwd)
    trees.set(key, tree)
  }
  return [...trees.values()]
}

/** Where the import of a file a workspace found has read to: in the workspace, or in the one that stores its session. */
export function importedOffset(store: Store, workspaceId: number, file: HistoryFile): number {
  const own = store.importFiles.get(workspaceId, file.source, file.path)
  if (own) return own.offset
  const opened = store.workspaces.get(workspaceId)
  if (!opened) return 0
  for (const other of store.workspaces.listAll()) {
    if (other.id === workspaceId || !isInsideWorkspace(other.path, opened.path)) continue
    const row = store.importFiles.get(other.id, file.source, file.path)
    if (row) return row.offset
  }
  return 0
}
