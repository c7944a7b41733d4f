import { readdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { HistoryFile } from '../adapter'
import type { DiscoveryCache } from '../discovery-cache'
import { isInWorkspace, sameFolder } from '../code-buddy/workspace-match'
import { readHeadText, statOrNull } from '../../fs/stat'

export const HISTORY_FILE = 'api_conversation_history.json'
export const UI_FILE = 'ui_messages.json'
export const METADATA_FILE = 'task_metadata.json'
/** Roo Code's (3.3x and later) and Kilo Code's copy of the task's history item (its parent task). */
export const HISTORY_ITEM_FILE = 'history_item.json'
/** The first environment details (with the working directory) come with the first prompt. */
const HEAD_BYTES = 256 * 1024

/** Every task folder under the roots, with the working directory its first message records. */
export async function discoverClineFiles(roots: string[], _signal?: AbortSignal, cache?: DiscoveryCache): Promise<HistoryFile[]> {
  const files: HistoryFile[] = []
  for (const root of roots) files.push(...(await historyFiles(root, cache)))
  return files
}

/**
 * The tasks recorded in the workspace folder (or a folder inside it); or, when the workspace is
 * itself a store (one of the roots, or a folder with a `tasks/` of task folders: an extension's
 * global storage, a copy of one), all of its tasks, shown there whatever folder they ran in.
 */
export async function discoverClineWorkspace(workspacePath: string, roots: string[], _signal?: AbortSignal, cache?: DiscoveryCache): Promise<HistoryFile[]> {
  if (roots.some((root) => sameFolder(root, workspacePath)) || taskIds(workspacePath).length > 0) {
    return (await historyFiles(workspacePath, cache)).map((file) => ({ ...file, cwd: workspacePath }))
  }
  const files: HistoryFile[] = []
  for (const root of roots) files.push(...(await historyFiles(root, cache, workspacePath)))
  return files
}

/** The store's tasks and sessions; with `workspace`, only those recorded in it (the others are not fingerprinted). */
async function historyFiles(root: string, cache: DiscoveryCache | undefined, workspace?: string): Promise<HistoryFile[]> {
  const files = [...(await taskFiles(root, cache)), ...sdkSessionFiles(root)]
  const wanted = workspace === undefined ? files : files.filter((file) => file.cwd !== null && isInWorkspace(file.cwd, workspace))
  return wanted.map((file) => ({ ...file, fingerprint: isTaskFolder(file.path) ? taskFingerprint(file.path) : folderFingerprint(file.path) }))
}

function taskIds(root: string): string[] {
  return names(join(root, 'tasks'))
}

async function taskFiles(root: string, cache: DiscoveryCache | undefined): Promise<HistoryFile[]> {
  const files: HistoryFile[] = []
  let index: Map<string, string> | undefined
  for (const taskId of taskIds(root)) {
    const dir = join(root, 'tasks', taskId)
    const history = join(dir, HISTORY_FILE)
    if (!statOrNull(history)?.isFile()) continue
    const recorded = cache ? await cache.facts(history, () => Promise.resolve(recordedCwd(history))) : recordedCwd(history)
    // Cline's task index remembers the folder a task started in, where the history names none.
    const cwd = recorded ?? (index ??= indexedCwds(root)).get(taskId) ?? null
    files.push({ source: 'cline', path: dir, sessionId: taskId, role: 'main', cwd, backupDir: null })
  }
  return files
}

/** `state/taskHistory.json` (Cline's `HistoryItem[]`): `cwdOnTaskInitialization` by task id. */
function indexedCwds(root: string): Map<string, string> {
  const cwds = new Map<string, string>()
  try {
    const items: unknown = JSON.parse(readFileSync(join(root, 'state', 'taskHistory.json'), 'utf8'))
    for (const item of Array.isArray(items) ? (items as unknown[]) : []) {
      const { id, cwdOnTaskInitialization: cwd } = (typeof item === 'object' && item !== null ? item : {}) as { id?: unknown; cwdOnTaskInitialization?: unknown }
      if (typeof id === 'string' && typeof cwd === 'string') cwds.set(id, cwd)
    }
  } catch {
    // No index, or not one Retrace can read: the tasks' own records decide.
  }
  return cwds
}

/** Cline 4's `sessions/<id>/`: the manifest `<id>.json` names the working directory. */
function sdkSessionFiles(root: string): HistoryFile[] {
  const sessions = join(root, 'sessions')
  return names(sessions).flatMap((id) => {
    const dir = join(sessions, id)
    if (!statOrNull(join(dir, `${id}.messages.json`))?.isFile()) return []
    return [{ source: 'cline' as const, path: dir, sessionId: id, role: 'main' as const, cwd: manifestCwd(join(dir, `${id}.json`)), backupDir: null }]
  })
}

function manifestCwd(path: string): string | null {
  try {
    const manifest: unknown = JSON.parse(readFileSync(path, 'utf8'))
    if (typeof manifest !== 'object' || manifest === null) return null
    const { cwd, workspace_root: root } = manifest as { cwd?: unknown; workspace_root?: unknown }
    return typeof cwd === 'string' ? cwd : typeof root === 'string' ? root : null
  } catch {
    return null
  }
}

/** Names, sizes and times of the JSON files of a session folder (sub-agents add files). */
function folderFingerprint(dir: string): string {
  return names(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => {
      const stats = statOrNull(join(dir, name))
      return `${name}:${stats?.size ?? '-'}:${stats?.mtimeMs ?? '-'}`
    })
    .join('|')
}

export function isTaskFolder(dir: string): boolean {
  return statOrNull(join(dir, HISTORY_FILE))?.isFile() ?? false
}

/** Sizes and times of the files Cline and its forks rewrite whole: any save changes one. */
export function taskFingerprint(dir: string): string {
  return [HISTORY_FILE, UI_FILE, METADATA_FILE, HISTORY_ITEM_FILE]
    .map((name) => {
      const stats = statOrNull(join(dir, name))
      return stats ? `${name}:${stats.size}:${stats.mtimeMs}` : `${name}:-`
    })
    .join('|')
}

/**
 * `# Current Working Directory (<cwd>) Files` (Cline) or `# Current Workspace Directory (…)` (Roo
 * Code), from the head of the history: the first environment details follow the first prompt.
 */
function recordedCwd(path: string): string | null {
  for (const bytes of [16 * 1024, HEAD_BYTES]) {
    const match = /# Current (?:Working|Workspace) Directory \(((?:[^"\\]|\\.)+?)\) Files/.exec(readHeadText(path, bytes))
    if (!match?.[1]) continue
    // A multi-root workspace names its primary folder only (`Primary: <name>`), not a path.
    if (match[1].startsWith('Primary: ')) return null
    try {
      return JSON.parse(`"${match[1]}"`) as string
    } catch {
      return null
    }
  }
  return null
}

export function taskIdOf(dir: string): string {
  return basename(dir)
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir).sort()
  } catch {
    return []
  }
}

