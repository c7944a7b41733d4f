import { basename, isAbsolute } from 'node:path'
import { whyNotAWorkspaceFor } from '../journal/protected-folders'
import type { Store } from '../store/store'
import type { HistoryFile, SourceAdapter } from './adapter'
import type { ImportReport } from './import-deps'
import { groupByRecordedCwd, isInsideWorkspace } from './recorded-workspaces'

/**
 * The histories in a folder added as `adapter`'s: whatever the source finds when the folder is
 * its home (everything under it, whatever working directory it recorded) or its workspace
 * (a deployment or a database kept in it). Each once.
 */
export async function filesInSourceFolder(adapter: SourceAdapter, folder: string, signal?: AbortSignal) {
  const found = [...(await adapter.discoverAll([folder], signal)), ...(await adapter.discover(folder, [folder], signal))]
  const seen = new Set<string>()
  return found.filter((file) => !seen.has(file.path) && seen.add(file.path))
}

/**
 * An added folder's files split by where they belong: here, the sessions recorded in the
 * workspace's folder or inside it, those that recorded the added folder itself (a deployment
 * kept elsewhere records where it runs) and those that recorded none (nothing says where else
 * they go); elsewhere, the others by the folder they recorded, as `import --all` would place them.
 */
export function splitByWorkspace(files: readonly HistoryFile[], workspacePath: string, folder: string): { here: HistoryFile[]; elsewhere: Map<string, HistoryFile[]> } {
  const here: HistoryFile[] = []
  const elsewhere = new Map<string, HistoryFile[]>()
  for (const [cwd, recorded] of groupByRecordedCwd(files)) {
    if (cwd === null || isInsideWorkspace(cwd, workspacePath) || isInsideWorkspace(cwd, folder)) here.push(...recorded)
    else elsewhere.set(cwd, recorded)
  }
  return { here, elsewhere }
}

export interface SpreadReport {
  /** The workspaces the folder's other sessions went into, with how many sessions each got. */
  workspaces: { id: number; path: string; sessions: number }[]
  /** Recorded folders that can never be a workspace (the home folder, `/`…): their sessions are not imported. */
  refused: { cwd: string; reason: string; sessions: number }[]
  /** A home or system folder: its sessions went into a read-only workspace (never rewound), and why. */
  readOnly: { id: number; path: string; reason: string; sessions: number }[]
}

/**
 * After a folder is added to one workspace: the sessions it holds for other folders go into
 * their own workspaces (remembered, not opened), each of which gets the folder too, so its later
 * imports follow it. A home or system folder gets a read-only workspace; a folder that is no
 * absolute path is reported, never imported.
 */
export async function spreadSourceFolder(
  deps: { store: Store; env: NodeJS.ProcessEnv; importInto: (workspace: { id: number; path: string }, files: HistoryFile[]) => Promise<ImportReport> },
  workspacePath: string,
  adapter: SourceAdapter,
  folder: string,
  signal?: AbortSignal
): Promise<SpreadReport> {
  const { elsewhere } = splitByWorkspace(await filesInSourceFolder(adapter, folder, signal), workspacePath, folder)
  const spread: SpreadReport = { workspaces: [], refused: [], readOnly: [] }
  for (const [cwd, files] of [...elsewhere.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const reason = whyNotAWorkspaceFor(cwd, deps.env)
    if (reason && !isAbsolute(cwd)) {
      spread.refused.push({ cwd, reason, sessions: files.filter((file) => file.role === 'main').length })
      continue
    }
    const id = deps.store.workspaces.getByPath(cwd)?.id ?? deps.store.workspaces.remember(cwd, basename(cwd) || cwd)
    deps.store.sourceFolders.add(id, adapter.name, folder)
    // A home or system folder's workspace is read-only: the import journals nothing there (R50).
    const report = await deps.importInto({ id, path: cwd }, files)
    if (reason) spread.readOnly.push({ id, path: cwd, reason, sessions: report.sessions })
    else spread.workspaces.push({ id, path: cwd, sessions: report.sessions })
  }
  return spread
}

/**
 * The same session found in more than one place (the agent's own folder and a copy of it added
 * as a source folder, or two copies): one file per session, or both would feed the same session
 * and every message would be there, and found by search, twice. Within one place every file
 * is kept (a source may split a session over files). The place kept is the one already imported
 * into the workspace, else the first (the agent's own folder before added ones).
 */
export function onePlacePerSession<T extends { adapter: SourceAdapter; file: HistoryFile }>(places: T[][], imported: (found: T) => boolean): T[] {
  const keyOf = (found: T) => `${found.adapter.name}\0${found.file.role}\0${found.file.sessionId}`
  const first = new Map<string, number>()
  const importedIn = new Map<string, number>()
  places.forEach((place, index) => {
    for (const found of place) {
      const key = keyOf(found)
      if (!first.has(key)) first.set(key, index)
      if (!importedIn.has(key) && imported(found)) importedIn.set(key, index)
    }
  })
  return places.flatMap((place, index) => place.filter((found) => (importedIn.get(keyOf(found)) ?? first.get(keyOf(found))) === index))
}
