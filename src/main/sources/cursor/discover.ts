import { readdirSync, readFileSync, type Stats } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { HistoryFile } from '../adapter'
import { isRecord } from '../plain-data'
import { statOrNull } from '../../fs/stat'

/** Each Cursor store is SQLite named so, in `workspaceStorage/<hash>/` and in `globalStorage/`. */
export const STATE_DB = 'state.vscdb'

/**
 * Cursor's `User` folder: VS Code's user-data path with Cursor's product name. Like VS Code,
 * Cursor puts it under `$VSCODE_APPDATA` when set, else `%APPDATA%` (Windows),
 * `~/Library/Application Support` (macOS) or `$XDG_CONFIG_HOME` / `~/.config` (Linux).
 */
export function cursorRoots(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string[] {
  const home = env.HOME ?? env.USERPROFILE ?? homedir()
  const platformDefault =
    platform === 'win32' ? (env.APPDATA ?? join(home, 'AppData', 'Roaming')) : platform === 'darwin' ? join(home, 'Library', 'Application Support') : env.XDG_CONFIG_HOME || join(home, '.config')
  return [resolve(env.VSCODE_APPDATA || platformDefault, 'Cursor', 'User')]
}

/** The global store beside a workspace store: `<User>/globalStorage/state.vscdb`. */
export function globalDbOf(workspaceDb: string): string {
  return join(dirname(dirname(dirname(workspaceDb))), 'globalStorage', STATE_DB)
}

/** The workspace-storage hash of a workspace store (its folder's name). */
export function workspaceHashOf(workspaceDb: string): string {
  return dirname(workspaceDb).split(/[\\/]/).at(-1) ?? ''
}

/** The Cursor workspaces whose folder is this one: their stores hold (or list) its conversations. */
export function discoverCursorWorkspace(workspacePath: string, roots: string[]): Promise<HistoryFile[]> {
  const wanted = resolve(workspacePath)
  return Promise.resolve(everyWorkspace(roots).filter((file) => file.cwd === wanted))
}

/** Every Cursor workspace with a local folder (`retrace import --all`). */
export function discoverCursorFiles(roots: string[]): Promise<HistoryFile[]> {
  return Promise.resolve(everyWorkspace(roots))
}

function everyWorkspace(roots: string[]): HistoryFile[] {
  const files: HistoryFile[] = []
  for (const root of new Set(roots.map((root) => resolve(root)))) {
    const storage = join(root, 'workspaceStorage')
    for (const hash of listOrEmpty(storage).sort()) {
      const folder = workspaceFolder(join(storage, hash, 'workspace.json'))
      const file = folder ? historyFile(join(storage, hash, STATE_DB), folder) : null
      if (file) files.push(file)
    }
  }
  return files
}

/**
 * The local folder a `workspace.json` names: `folder` (a folder opened), or the folder holding a
 * `.code-workspace` file (`workspace`). Remote folders (`vscode-remote://…`) are not on this machine.
 */
export function workspaceFolder(path: string): string | null {
  let data: unknown
  try {
    data = JSON.parse(readFileSync(path, 'utf8')) as unknown
  } catch {
    return null
  }
  if (!isRecord(data)) return null
  const localPath = (uri: unknown): string | null => {
    if (typeof uri !== 'string' || !uri.startsWith('file://')) return null
    try {
      return resolve(fileURLToPath(uri))
    } catch {
      return null
    }
  }
  const folder = localPath(data.folder)
  if (folder) return folder
  const workspaceFile = localPath(data.workspace ?? data.configuration)
  return workspaceFile ? dirname(workspaceFile) : null
}

/**
 * A workspace store, to import into the folder `cwd`. Its conversations live in the global store
 * too (since Cursor 0.43 or so), so the fingerprint covers both, each with its `-wal`.
 */
function historyFile(path: string, cwd: string): HistoryFile | null {
  const stats = statOrNull(path)
  if (!stats?.isFile()) return null
  const global = globalDbOf(path)
  const parts = [path, `${path}-wal`, global, `${global}-wal`].map((file) => stamp(statOrNull(file)))
  return { source: 'cursor', path, sessionId: workspaceHashOf(path), role: 'main', cwd, backupDir: null, fingerprint: parts.join(':') }
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

