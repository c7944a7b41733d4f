import { createHash } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import type { HistoryFile } from '../adapter'
import { looksLikeExport } from './export-file'
import type { HomeScope } from './read-home'
import { isSessionFileName } from './session-file'
import { isInWorkspace, sameFolder } from './workspace-match'
import { isDirectory, readHeadText, statOrNull } from '../../fs/stat'

/** Code Buddy's own names: `session_<base-36 time>_<6>.json`. A folder holding these in `sessions/` is a Code Buddy home. */
const CODE_BUDDY_SESSION = /^session_[0-9a-z]+_[0-9a-z]+\.json$/
/** Exports larger than this are not looked at (the head check reads 4 KiB, the import reads the whole file). */
const MAX_EXPORT_BYTES = 64 * 1024 * 1024

/**
 * `CODEBUDDY_HOME` when set, else `~/.codebuddy`. The seed documents no override (only
 * `~/.codebuddy/sessions` and `~/.codebuddy/branches`); the variable follows `CODEX_HOME`.
 */
export function codeBuddyRoots(env: NodeJS.ProcessEnv): string[] {
  const configured = env.CODEBUDDY_HOME?.trim()
  return [configured ? configured : join(env.HOME ?? homedir(), '.codebuddy')]
}

/**
 * A Code Buddy home is imported as one history "file": its `sessions/` folder (the path), read
 * with `branches/` beside it. The HistoryFile's cwd says which sessions belong: the home itself
 * (all of them) or a workspace (those recorded in it); see `scopeOf`.
 */
function homeFile(home: string, cwd: string): HistoryFile {
  const sessions = join(resolve(home), 'sessions')
  return { source: 'code-buddy', path: sessions, sessionId: sessions, role: 'main', cwd: resolve(cwd), backupDir: null, fingerprint: homeFingerprint(home) }
}

/** Which sessions a home's HistoryFile stands for: all when its cwd is the home, else the workspace's. */
export function scopeOf(file: HistoryFile): HomeScope {
  const home = dirname(file.path)
  return file.cwd === null || file.cwd === home ? 'all' : { workspace: file.cwd }
}

/** Every home: all its sessions, into the workspace of the home folder (`retrace import --all`). */
export function discoverCodeBuddyFiles(roots: string[]): Promise<HistoryFile[]> {
  return Promise.resolve(roots.filter(isHome).map((root) => homeFile(root, root)))
}

/**
 * A workspace's Code Buddy history: the home itself when the workspace IS a Code Buddy home
 * (one of the roots, or any folder laid out like one: opening it shows its sessions), else the
 * home when one of its sessions was recorded in the workspace; and the exported sessions at
 * the top of the workspace folder.
 */
export function discoverCodeBuddyWorkspace(workspacePath: string, roots: string[]): Promise<HistoryFile[]> {
  const files: HistoryFile[] = []
  if (roots.some((root) => sameFolder(root, workspacePath)) || looksLikeHome(workspacePath)) {
    files.push(homeFile(workspacePath, workspacePath))
  } else {
    for (const root of roots) if (isHome(root) && hasSessionIn(root, workspacePath)) files.push(homeFile(root, workspacePath))
  }
  files.push(...exportsIn(workspacePath))
  return Promise.resolve(files)
}

function isHome(folder: string): boolean {
  return isDirectory(join(folder, 'sessions')) || isDirectory(join(folder, 'branches'))
}

/** A folder with Code Buddy's layout: `sessions/session_<time>_<id>.json` files. */
function looksLikeHome(folder: string): boolean {
  return names(join(folder, 'sessions')).some((name) => CODE_BUDDY_SESSION.test(name))
}

/** Working directories read from the session files' heads, by file signature (discovery runs every few seconds). */
const workingDirectories = new Map<string, { signature: string; cwd: string | null }>()

function hasSessionIn(home: string, workspacePath: string): boolean {
  const dir = join(home, 'sessions')
  return names(dir).some((name) => {
    if (!isSessionFileName(name)) return false
    const cwd = recordedCwd(join(dir, name))
    return cwd !== null && isInWorkspace(cwd, workspacePath)
  })
}

/**
 * `workingDirectory` from the first 16 KiB of a session file: Code Buddy writes it fourth, after
 * id, name and model, so the whole (possibly large) file need not be read.
 */
function recordedCwd(path: string): string | null {
  const stats = statOrNull(path)
  if (!stats?.isFile()) return null
  const signature = `${stats.ino}:${stats.size}:${stats.mtimeMs}`
  const cached = workingDirectories.get(path)
  if (cached?.signature === signature) return cached.cwd
  let cwd: string | null = null
  const match = /"workingDirectory"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(readHeadText(path, 16 * 1024))
  if (match?.[1]) {
    try {
      cwd = JSON.parse(match[1]) as string
    } catch {
      cwd = null
    }
  }
  if (workingDirectories.size > 20_000) workingDirectories.clear()
  workingDirectories.set(path, { signature, cwd })
  return cwd
}

/** Whether each JSON file at a workspace's top is an export, by file signature (checked again only when it changes). */
const exportHeads = new Map<string, { signature: string; isExport: boolean }>()

/** `ExportedSession` files at the top of the workspace (where `exportToFile` writes when given a bare name). */
function exportsIn(workspacePath: string): HistoryFile[] {
  return names(workspacePath).flatMap((name) => {
    if (!name.endsWith('.json')) return []
    const path = join(workspacePath, name)
    const stats = statOrNull(path)
    if (!stats?.isFile() || stats.size > MAX_EXPORT_BYTES) return []
    const signature = `${stats.ino}:${stats.size}:${stats.mtimeMs}`
    let known = exportHeads.get(path)
    if (known?.signature !== signature) {
      known = { signature, isExport: looksLikeExport(path) }
      if (exportHeads.size > 20_000) exportHeads.clear()
      exportHeads.set(path, known)
    }
    if (!known.isExport) return []
    return [{ source: 'code-buddy' as const, path, sessionId: path, role: 'main' as const, cwd: workspacePath, backupDir: null, fingerprint: `${stats.size}:${stats.mtimeMs}` }]
  })
}

/**
 * Names, sizes and times of the session and branch files: any save changes one. Lock files are
 * left out (taken and released around every save, they say nothing about the content).
 */
export function homeFingerprint(home: string): string {
  const parts: string[] = []
  const add = (dir: string, label: string) => {
    for (const name of names(dir)) {
      if (!name.endsWith('.json')) continue
      const stats = statOrNull(join(dir, name))
      if (stats?.isFile()) parts.push(`${label}${name}:${stats.size}:${stats.mtimeMs}`)
    }
  }
  add(join(home, 'sessions'), 'sessions/')
  const branches = join(home, 'branches')
  add(branches, 'branches/')
  for (const folder of names(branches)) if (isDirectory(join(branches, folder))) add(join(branches, folder), `branches/${folder}/`)
  return createHash('sha256').update(parts.join('\n')).digest('hex')
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir).sort()
  } catch {
    return []
  }
}

