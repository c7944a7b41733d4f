import { readFileSync, statSync, type Stats } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import type { HistoryFile } from '../adapter'

/**
 * Where Aider keeps its chat history (aider/args.py, "History Files"): `.aider.chat.history.md`
 * in the git root (the current folder outside git), the same on Linux, macOS and Windows; any
 * other file given by `--chat-history-file`, i.e. `AIDER_CHAT_HISTORY_FILE` (configargparse's
 * `AIDER_` prefix) or `chat-history-file:` in `.aider.conf.yml`. No home folder holds histories.
 */
export const DEFAULT_HISTORY = '.aider.chat.history.md'
const CONFIG = '.aider.conf.yml'

/** The file `AIDER_CHAT_HISTORY_FILE` names, when absolute (a relative one depends on where Aider ran). */
export function aiderRoots(env: NodeJS.ProcessEnv): string[] {
  const configured = env.AIDER_CHAT_HISTORY_FILE?.trim()
  return configured && isAbsolute(configured) ? [resolve(configured)] : []
}

/** Every history named by the environment, into the workspace of the folder holding it. */
export function discoverAiderFiles(roots: string[]): Promise<HistoryFile[]> {
  return Promise.resolve(roots.flatMap((path) => historyFile(path, dirname(path))))
}

/**
 * A workspace's histories: the default file at its top, the file its `.aider.conf.yml` names,
 * and a file named by the environment that lies inside it. Relative paths are the workspace's.
 */
export function discoverAiderWorkspace(workspacePath: string, roots: string[]): Promise<HistoryFile[]> {
  const candidates = [join(workspacePath, DEFAULT_HISTORY), ...configuredHistory(workspacePath), ...roots.filter((root) => isInside(root, workspacePath))]
  const unique = [...new Set(candidates.map((path) => resolve(path)))]
  return Promise.resolve(unique.flatMap((path) => historyFile(path, workspacePath)))
}

function historyFile(path: string, cwd: string): HistoryFile[] {
  const stats = statOrNull(path)
  if (!stats?.isFile()) return []
  return [{ source: 'aider', path, sessionId: path, role: 'main', cwd: resolve(cwd), backupDir: null, fingerprint: `${stats.ino}:${stats.size}:${stats.mtimeMs}` }]
}

/** `chat-history-file: <path>` in the workspace's `.aider.conf.yml` (a plain scalar, quoted or not). */
function configuredHistory(workspacePath: string): string[] {
  let text: string
  try {
    text = readFileSync(join(workspacePath, CONFIG), 'utf8')
  } catch {
    return []
  }
  const match = /^chat-history-file:[ \t]*(["']?)(.+?)\1[ \t]*(?:#.*)?$/m.exec(text)
  const value = match?.[2]?.trim()
  return value ? [resolve(workspacePath, value)] : []
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(resolve(folder), resolve(path))
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path)
  } catch {
    return null
  }
}
