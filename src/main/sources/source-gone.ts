import { lstatSync } from 'node:fs'
import type { Store } from '../store/store'
import { isDirectory } from '../fs/stat'
import type { SourceName } from './adapter'
import { isWithin } from './files'
import { adaptersFor } from './registry'
import { movedRollout } from './codex/moved-rollout'

export interface SourceGoneReport {
  /** Files found deleted by their agent this time (their sessions stay, marked). */
  marked: number
  /** Files marked before that are back. */
  cleared: number
  /** The workspaces whose sessions changed mark. */
  workspaceIds: number[]
}

/**
 * Mark the imported files their agent deleted, and unmark those that came back. Run after a
 * discovery of every root (`importAll`): a file the agent only moved (a Codex rollout compressed
 * to `.jsonl.zst`, or archived) has had its import row moved to the new path by then, and is
 * looked for there besides (codex/moved-rollout.ts).
 *
 * Only a file missing while the folder it was found under is here counts: an unplugged disk, or
 * a CLAUDE_CONFIG_DIR / CODEX_HOME that points elsewhere this time, makes no file "deleted". The
 * folder is the source's root as the environment names it now, or a folder added to the
 * workspace as the source's history. Nothing is removed from the store, whatever is found.
 * `found`: the files that discovery has just listed.
 */
export function markSourcesGone(store: Store, env: NodeJS.ProcessEnv, only?: SourceName[], now = Date.now(), found: ReadonlySet<string> = new Set()): SourceGoneReport {
  const report: SourceGoneReport = { marked: 0, cleared: 0, workspaceIds: [] }
  const workspaces = new Set<number>()
  const addedFolders = new Map<number, { source: string; path: string }[]>()
  const foldersOf = (workspaceId: number) => {
    let folders = addedFolders.get(workspaceId)
    if (!folders) addedFolders.set(workspaceId, (folders = store.sourceFolders.list(workspaceId)))
    return folders
  }
  const folderIsHere = new Map<string, boolean>()
  const here = (folder: string): boolean => {
    let known = folderIsHere.get(folder)
    if (known === undefined) folderIsHere.set(folder, (known = isDirectory(folder)))
    return known
  }
  for (const adapter of adaptersFor(only)) {
    const roots = adapter.roots(env).filter(here)
    const gone: number[] = []
    const back: number[] = []
    // Counted by file: a snapshot store's sessions have a row each besides the store's own.
    const goneFiles = new Set<string>()
    const backFiles = new Set<string>()
    const rows = store.importFiles.filesOfSource(adapter.name)
    const paths = new Set(rows.map((row) => row.path))
    for (const row of rows) {
      // A snapshot store's sessions are kept as `<store path>#<session key>`: the store is the file.
      const path = adapter.kind === 'snapshot' ? storeOf(row.path, paths) : row.path
      // Listed by the discovery just made and not marked: nothing to do (the common case, kept cheap).
      const listed = found.has(path)
      if (listed && row.goneAt === null) continue
      const folders = [...roots, ...foldersOf(row.workspaceId).filter((folder) => folder.source === adapter.name && here(folder.path)).map((folder) => folder.path)]
      if (!folders.some((folder) => isWithin(path, folder))) continue
      // A rollout Codex compressed or archived was moved, not deleted (whether or not its import row followed it yet).
      const missing = !listed && isMissing(path) && !(adapter.name === 'codex' && movedRollout(path, roots) !== null)
      if (missing && row.goneAt === null) {
        gone.push(row.id)
        goneFiles.add(path)
      } else if (!missing && row.goneAt !== null) {
        back.push(row.id)
        backFiles.add(path)
      } else continue
      workspaces.add(row.workspaceId)
    }
    if (gone.length + back.length === 0) continue
    store.transaction(() => {
      store.importFiles.setGone(gone, now)
      store.importFiles.setGone(back, null)
    })
    report.marked += goneFiles.size
    report.cleared += backFiles.size
  }
  report.workspaceIds = [...workspaces]
  return report
}

/** The store a snapshot session's row belongs to: the shortest `#`-cut prefix that is a store's own row. */
function storeOf(path: string, paths: Set<string>): string {
  for (let hash = path.indexOf('#'); hash >= 0; hash = path.indexOf('#', hash + 1)) {
    if (paths.has(path.slice(0, hash))) return path.slice(0, hash)
  }
  return path
}

/** Missing, not merely unreadable: a permission error says nothing about deletion. */
function isMissing(path: string): boolean {
  try {
    lstatSync(path)
    return false
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOENT' || code === 'ENOTDIR'
  }
}
