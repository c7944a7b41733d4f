import { homedir } from 'node:os'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import type { HistoryFile } from '../adapter'
import { isInWorkspace, sameFolder } from '../code-buddy/workspace-match'
import { readForeignDb } from '../foreign-db/read-foreign-db'
import { databaseFingerprint, databasesIn, storageFingerprint, storageFolderIn } from './store-files'
import { kiloRoots } from './kilo'
import { addDirectory, latest, storageDirectories, type Directories } from './storage-folder'

/**
 * OpenCode's data folder, `Global.Path.data`: `$XDG_DATA_HOME/opencode`, else
 * `~/.local/share/opencode` (xdg-basedir's default on Linux, macOS and Windows alike). The folder
 * of `$OPENCODE_DB` too, when it names a database elsewhere. Then the Kilo CLI's data folders
 * (kilo.ts): the same layout under another name, read the same way.
 */
export function openCodeRoots(env: NodeJS.ProcessEnv): string[] {
  const data = env.XDG_DATA_HOME?.trim() || join(env.HOME ?? homedir(), '.local', 'share')
  const roots = [join(data, 'opencode')]
  const db = env.OPENCODE_DB?.trim()
  if (db && isAbsolute(db)) roots.push(dirname(db))
  return [...new Set([...roots, ...kiloRoots(env)].map((root) => resolve(root)))]
}

/** The histories of a data folder: its databases, or (older versions) its storage folder. */
function storesIn(dataDir: string): { path: string; fingerprint: string }[] {
  const stores = databasesIn(dataDir).map((path) => ({ path, fingerprint: databaseFingerprint(path) }))
  const storage = storageFolderIn(dataDir)
  if (storage) stores.push({ path: storage, fingerprint: storageFingerprint(storage) })
  return stores
}

function historyFile(store: { path: string; fingerprint: string }, cwd: string, lastActivityAt?: number | null): HistoryFile {
  const file: HistoryFile = { source: 'opencode', path: store.path, sessionId: store.path, role: 'main', cwd, backupDir: null, fingerprint: store.fingerprint }
  if (typeof lastActivityAt === 'number') file.lastActivityAt = lastActivityAt
  return file
}

/** Every store, once per directory its sessions ran in (`retrace import --all`). */
export async function discoverOpenCodeFiles(roots: string[]): Promise<HistoryFile[]> {
  const files: HistoryFile[] = []
  for (const root of new Set(roots.map((root) => resolve(root)))) {
    for (const store of storesIn(root)) for (const [directory, lastActivityAt] of await directoriesOf(store)) files.push(historyFile(store, directory, lastActivityAt))
  }
  return files
}

/**
 * A workspace's OpenCode histories: the data folder itself opened as the workspace (all its
 * sessions), else each store with a session that ran in the workspace (those sessions).
 */
export async function discoverOpenCodeWorkspace(workspacePath: string, roots: string[]): Promise<HistoryFile[]> {
  const own = storesIn(workspacePath)
  if (own.length > 0) return own.map((store) => historyFile(store, workspacePath))
  const files: HistoryFile[] = []
  for (const root of new Set(roots.map((root) => resolve(root)))) {
    if (sameFolder(root, workspacePath)) continue
    for (const store of storesIn(root)) {
      const inWorkspace = [...(await directoriesOf(store))].filter(([directory]) => isInWorkspace(directory, workspacePath))
      if (inWorkspace.length > 0) files.push(historyFile(store, workspacePath, latest(inWorkspace.map(([, time]) => time))))
    }
  }
  return files
}

/** Whether a HistoryFile stands for its whole data folder (the folder opened as the workspace). */
export function isWholeStore(file: HistoryFile): boolean {
  // `<data>/opencode.db` and `<data>/storage` alike.
  return file.cwd === null || sameFolder(dirname(file.path), file.cwd)
}

/**
 * Directories the store's sessions ran in, each with its sessions' latest update (null when none
 * says): one database serves every project, so its modification time tells nothing of one of
 * them. Read again only when the store changed.
 */
const directoryCache = new Map<string, { fingerprint: string; directories: Directories }>()

async function directoriesOf(store: { path: string; fingerprint: string }): Promise<Directories> {
  const cached = directoryCache.get(store.path)
  if (cached?.fingerprint === store.fingerprint) return cached.directories
  const directories = store.path.endsWith('.db') ? await databaseDirectories(store.path) : storageDirectories(store.path)
  if (directoryCache.size > 1000) directoryCache.clear()
  directoryCache.set(store.path, { fingerprint: store.fingerprint, directories })
  return directories
}

/** The `session.directory` column (the project's worktree when empty) and `time_updated`, without reading messages. */
async function databaseDirectories(path: string): Promise<Directories> {
  const read = await readForeignDb(path, {
    project: { columns: ['id', 'worktree'], required: ['id', 'worktree'] },
    session: { columns: ['project_id', 'directory', 'time_updated'], required: ['project_id'], distinct: true }
  })
  const found: Directories = new Map()
  // Unreadable (being replaced, not SQLite): nothing to match now; importing the folder itself reports why.
  if (!read.ok) return found
  const worktrees = new Map<unknown, unknown>()
  const projects = read.tables.project
  if (projects?.state === 'read') for (const row of projects.rows) worktrees.set(row.id, row.worktree)
  const sessions = read.tables.session
  if (sessions?.state !== 'read') return found
  for (const row of sessions.rows) {
    const directory = typeof row.directory === 'string' && row.directory !== '' ? row.directory : worktrees.get(row.project_id)
    if (typeof directory === 'string' && directory !== '' && directory !== '/') addDirectory(found, directory, row.time_updated)
  }
  return found
}
