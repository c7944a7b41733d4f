import { readdirSync, type Stats } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import type { HistoryFile } from '../adapter'
import { DB_NAME, readStoreDb } from './store-db'
import { workingDirs } from './working-dir'
import { statOrNull } from '../../fs/stat'

/**
 * Where y-agent keeps its data folder. y-agent resolves its relative default `db_path`
 * (`data/y-agent.db`, the seed's "data/ directory") against `$XDG_STATE_HOME/y-agent/`
 * (`~/.local/state/y-agent/`); `Y_AGENT_DB_PATH` overrides the database path. `Y_AGENT_HOME`
 * names a y-agent home holding `data/` (or the data folder itself), for setups that move it.
 */
export function yAgentRoots(env: NodeJS.ProcessEnv): string[] {
  const roots: string[] = []
  const dbPath = env.Y_AGENT_DB_PATH
  if (dbPath && isAbsolute(dbPath)) roots.push(dirname(dbPath))
  if (env.Y_AGENT_HOME) roots.push(join(env.Y_AGENT_HOME, 'data'), env.Y_AGENT_HOME)
  const home = env.HOME ?? homedir()
  const state = env.XDG_STATE_HOME || join(home, '.local', 'state')
  roots.push(join(state, 'y-agent', 'data'))
  return [...new Set(roots.map((root) => resolve(root)))]
}

/**
 * The y-agent stores of one workspace: the workspace itself when it is a y-agent data folder
 * (every session of the store), and each store under the roots some of whose sessions worked in
 * the workspace (those sessions).
 */
export async function discoverYAgentWorkspace(workspacePath: string, roots: string[]): Promise<HistoryFile[]> {
  const files: HistoryFile[] = []
  const own = historyFile(workspacePath, workspacePath)
  if (own) files.push(own)
  for (const root of roots) {
    if (resolve(root) === resolve(workspacePath)) continue
    const file = historyFile(root, workspacePath)
    if (file && (await storeFolders(root, file.fingerprint ?? '')).includes(workspacePath)) files.push(file)
  }
  return files
}

/** Whether `folder` is a y-agent data folder itself (its database is right in it). */
export function isYAgentDataFolder(folder: string): boolean {
  return statOrNull(join(folder, DB_NAME))?.isFile() === true
}

/** Every store under the roots, once per project its sessions worked in (`retrace import --all`). */
export async function discoverYAgentFiles(roots: string[]): Promise<HistoryFile[]> {
  const files: HistoryFile[] = []
  for (const root of new Set(roots.map((root) => resolve(root)))) {
    const probe = historyFile(root, root)
    if (!probe) continue
    for (const folder of await storeFolders(root, probe.fingerprint ?? '')) files.push({ ...probe, cwd: folder })
  }
  return files
}

/**
 * The store of a data folder, to import into the workspace `cwd`: `cwd` equal to the data folder
 * means the whole store. Its fingerprint is the size and time of the database, its `-wal` (a
 * running y-agent grows the WAL, not the database) and every transcript file (appended to apart
 * from the database).
 */
function historyFile(dataDir: string, cwd: string): HistoryFile | null {
  const path = join(dataDir, DB_NAME)
  const db = statOrNull(path)
  if (!db?.isFile()) return null
  const parts = [stamp(db), stamp(statOrNull(`${path}-wal`))]
  const transcripts = join(dataDir, 'transcripts')
  for (const name of listOrEmpty(transcripts).filter((name) => name.endsWith('.jsonl')).sort()) parts.push(`${name}=${stamp(statOrNull(join(transcripts, name)))}`)
  return { source: 'y-agent', path, sessionId: path, role: 'main', cwd, backupDir: null, fingerprint: parts.join(':') }
}

/** Projects the store's sessions worked in; read again only when the store changed. */
const folderCache = new Map<string, { fingerprint: string; folders: string[] }>()

async function storeFolders(dataDir: string, fingerprint: string): Promise<string[]> {
  const cached = folderCache.get(dataDir)
  if (cached?.fingerprint === fingerprint) return cached.folders
  let folders: string[] = []
  try {
    folders = [...new Set([...workingDirs(await readStoreDb(join(dataDir, DB_NAME))).values()].filter((dir): dir is string => dir !== null))]
  } catch {
    // Unreadable (being replaced, not SQLite): nothing to match now; an import of the folder itself reports why.
  }
  folderCache.set(dataDir, { fingerprint, folders })
  return folders
}

function stamp(stats: Stats | null): string {
  return stats ? `${stats.size}@${stats.mtimeMs}` : '-'
}

function listOrEmpty(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}
