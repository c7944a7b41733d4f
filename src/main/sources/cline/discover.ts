import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync, type Stats } from 'node:fs'
import { basename, join } from 'node:path'
import type { HistoryFile } from '../adapter'
import { isInWorkspace, sameFolder } from '../code-buddy/workspace-match'

export const HISTORY_FILE = 'api_conversation_history.json'
export const UI_FILE = 'ui_messages.json'
export const METADATA_FILE = 'task_metadata.json'
/** The first environment details (with the working directory) come with the first prompt. */
const HEAD_BYTES = 256 * 1024

/** Every task folder under the roots, with the working directory its first message records. */
export function discoverClineFiles(roots: string[]): Promise<HistoryFile[]> {
  return Promise.resolve(roots.flatMap(historyFiles))
}

/**
 * The tasks recorded in the workspace folder (or a folder inside it); or, when the workspace is
 * itself a store (one of the roots, or a folder with a `tasks/` of task folders: an extension's
 * global storage, a copy of one), all of its tasks, shown there whatever folder they ran in.
 */
export function discoverClineWorkspace(workspacePath: string, roots: string[]): Promise<HistoryFile[]> {
  if (roots.some((root) => sameFolder(root, workspacePath)) || taskFiles(workspacePath).length > 0) {
    return Promise.resolve(historyFiles(workspacePath).map((file) => ({ ...file, cwd: workspacePath })))
  }
  return Promise.resolve(roots.flatMap(historyFiles).filter((file) => file.cwd !== null && isInWorkspace(file.cwd, workspacePath)))
}

function historyFiles(root: string): HistoryFile[] {
  return [...taskFiles(root), ...sdkSessionFiles(root)]
}

function taskFiles(root: string): HistoryFile[] {
  const tasks = join(root, 'tasks')
  let index: Map<string, string> | undefined
  return names(tasks).flatMap((taskId) => {
    const dir = join(tasks, taskId)
    const history = statOrNull(join(dir, HISTORY_FILE))
    if (!history?.isFile()) return []
    // Cline's task index remembers the folder a task started in, where the history names none.
    const cwd = recordedCwd(join(dir, HISTORY_FILE), history) ?? (index ??= indexedCwds(root)).get(taskId) ?? null
    return [{ source: 'cline' as const, path: dir, sessionId: taskId, role: 'main' as const, cwd, backupDir: null, fingerprint: taskFingerprint(dir) }]
  })
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
    return [{ source: 'cline' as const, path: dir, sessionId: id, role: 'main' as const, cwd: manifestCwd(join(dir, `${id}.json`)), backupDir: null, fingerprint: folderFingerprint(dir) }]
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

/** Sizes and times of the three files Cline rewrites whole: any save changes one. */
export function taskFingerprint(dir: string): string {
  return [HISTORY_FILE, UI_FILE, METADATA_FILE]
    .map((name) => {
      const stats = statOrNull(join(dir, name))
      return stats ? `${name}:${stats.size}:${stats.mtimeMs}` : `${name}:-`
    })
    .join('|')
}

/** Working directories read from the heads of history files, by file signature (discovery runs every few seconds). */
const workingDirectories = new Map<string, { signature: string; cwd: string | null }>()

/** `# Current Working Directory (<cwd>) Files` (Cline) or `# Current Workspace Directory (…)` (Roo Code). */
function recordedCwd(path: string, stats: Stats): string | null {
  const signature = `${stats.ino}:${stats.size}:${stats.mtimeMs}`
  const cached = workingDirectories.get(path)
  if (cached?.signature === signature) return cached.cwd
  const match = /# Current (?:Working|Workspace) Directory \(((?:[^"\\]|\\.)+?)\) Files/.exec(readHead(path, HEAD_BYTES))
  let cwd: string | null = null
  if (match?.[1] && !match[1].startsWith('Primary: ')) {
    try {
      cwd = JSON.parse(`"${match[1]}"`) as string
    } catch {
      cwd = null
    }
  }
  if (workingDirectories.size > 20_000) workingDirectories.clear()
  workingDirectories.set(path, { signature, cwd })
  return cwd
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

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path)
  } catch {
    return null
  }
}

function readHead(path: string, bytes: number): string {
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    const buffer = Buffer.alloc(bytes)
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0)).toString('utf8')
  } catch {
    return ''
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
