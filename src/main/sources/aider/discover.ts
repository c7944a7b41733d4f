import { homedir } from 'node:os'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import type { HistoryFile } from '../adapter'
import { readConfigText } from '../../fs/config-file.mts'
import { statOrNull } from '../../fs/stat'

/**
 * Where Aider keeps its chat history (aider/args.py, "History Files"): `.aider.chat.history.md`
 * in the git root (the current folder outside git), the same on Linux, macOS and Windows; any
 * other file given by `--chat-history-file`, i.e. `AIDER_CHAT_HISTORY_FILE` (configargparse's
 * `AIDER_` prefix) or `chat-history-file:` in a `.aider.conf.yml` — Aider reads the one in the
 * current folder, the git root's and the home folder's (aider/main.py). No home folder holds
 * histories; a relative path is the folder Aider ran in's.
 */
export const DEFAULT_HISTORY = '.aider.chat.history.md'
/** prompt_toolkit's FileHistory of the prompts typed, beside the chat history by default. */
export const INPUT_HISTORY = '.aider.input.history'
const CONFIG = '.aider.conf.yml'

/**
 * The files named by `AIDER_CHAT_HISTORY_FILE` and by the home folder's `.aider.conf.yml`:
 * absolute, or relative as written (each workspace resolves it against itself).
 */
export function aiderRoots(env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || env.USERPROFILE || homedir()
  const named = [env.AIDER_CHAT_HISTORY_FILE?.trim(), ...configuredHistory(join(home, CONFIG))]
  return [...new Set(named.flatMap((path) => (path ? [isAbsolute(path) ? resolve(path) : path] : [])))]
}

/** Every history named by an absolute path, into the workspace of the folder holding it. */
export function discoverAiderFiles(roots: string[]): Promise<HistoryFile[]> {
  return Promise.resolve(roots.filter((path) => isAbsolute(path)).flatMap((path) => historyFile(path, dirname(path))))
}

/**
 * A workspace's histories: the default file at its top, the file its `.aider.conf.yml` names,
 * a file named by the environment or the home configuration that lies inside it, and the
 * relative ones these name. Relative paths are the workspace's.
 */
export function discoverAiderWorkspace(workspacePath: string, roots: string[]): Promise<HistoryFile[]> {
  const named = [...configuredHistory(join(workspacePath, CONFIG)), ...roots].map((path) => resolve(workspacePath, path))
  const candidates = [join(workspacePath, DEFAULT_HISTORY), ...named.filter((path) => isInside(path, workspacePath))]
  const unique = [...new Set(candidates.map((path) => resolve(path)))]
  return Promise.resolve(unique.flatMap((path) => historyFile(path, workspacePath)))
}

/**
 * The input history that goes with a chat history: `.aider.input.history` beside it (both are
 * in the git root by default), else at the top of its workspace; null when there is none.
 */
export function inputHistoryOf(chatHistory: string, cwd: string | null): string | null {
  const places = [join(dirname(chatHistory), INPUT_HISTORY), ...(cwd ? [join(cwd, INPUT_HISTORY)] : [])]
  return places.find((path) => statOrNull(path)?.isFile()) ?? null
}

function historyFile(path: string, cwd: string): HistoryFile[] {
  const stats = statOrNull(path)
  if (!stats?.isFile()) return []
  // Read again when the input history changes too: it gives the prompts their times.
  const input = inputHistoryOf(path, cwd)
  const inputStats = input ? statOrNull(input) : null
  const inputPrint = inputStats ? `|${inputStats.size}:${inputStats.mtimeMs}` : ''
  return [{ source: 'aider', path, sessionId: path, role: 'main', cwd: resolve(cwd), backupDir: null, fingerprint: `${stats.ino}:${stats.size}:${stats.mtimeMs}${inputPrint}` }]
}

/**
 * `chat-history-file: <path>` in a `.aider.conf.yml` (a plain scalar, quoted or not). One that
 * is not a small regular file (a FIFO, a link to a device: a cloned repository can hold anything)
 * is passed over, as Aider would fail on it too; discovery has nobody to tell.
 */
function configuredHistory(config: string): string[] {
  let text: string | null
  try {
    text = readConfigText(config)
  } catch {
    return []
  }
  if (text === null) return []
  const match = /^chat-history-file:[ \t]*(["']?)(.+?)\1[ \t]*(?:#.*)?$/m.exec(text)
  const value = match?.[2]?.trim()
  return value ? [value] : []
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(resolve(folder), resolve(path))
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)
}

