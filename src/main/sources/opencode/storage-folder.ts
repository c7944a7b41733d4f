import { readdirSync, readFileSync, type Dirent } from 'node:fs'
import { basename, join } from 'node:path'
import { isRecord } from '../plain-data'
import { byId, sessionOf, type OpenCodeMessage, type OpenCodePart, type OpenCodeSession, type OpenCodeStore } from './model'

/** Which sessions to read: all of them, or those whose directory the predicate accepts. */
export type SessionFilter = (session: OpenCodeSession, worktree: string | null) => boolean

/**
 * OpenCode's storage folder (`<data>/storage/`, `Storage.write` of older versions), read-only:
 * `project/<id>.json` (the worktree), `session/<project>/<id>.json`, `message/<session>/<id>.json`
 * and `part/<message>/<id>.json`. Ids come from the paths, as OpenCode's own migration takes them
 * (a moved session's JSON may still name its old project). A file that is not JSON is a problem;
 * the rest imports.
 */
export function readStorageFolder(storage: string, wanted: SessionFilter): OpenCodeStore {
  const problems: string[] = []
  const worktrees = new Map<string, string>()
  for (const file of jsonFiles(join(storage, 'project'))) {
    const info = readJson(join(storage, 'project', file), `project/${file}`, problems)
    if (info && typeof info.worktree === 'string') worktrees.set(basename(file, '.json'), info.worktree)
  }
  const sessions: OpenCodeSession[] = []
  for (const project of folders(join(storage, 'session'))) {
    for (const file of jsonFiles(join(storage, 'session', project))) {
      const label = `session/${project}/${file}`
      const info = readJson(join(storage, 'session', project, file), label, problems)
      if (!info) continue
      const session = sessionOf(info, { id: basename(file, '.json'), projectId: project, label })
      session.projectId = project
      if (!wanted(session, worktrees.get(project) ?? null)) continue
      session.messages = readMessages(storage, session.id, problems)
      sessions.push(session)
    }
  }
  return { worktrees, sessions, problems }
}

/** The directories recorded by every session of the folder (for discovery: which workspaces it has sessions of). */
export function storageDirectories(storage: string): Directories {
  const worktrees = new Map<string, string>()
  for (const file of jsonFiles(join(storage, 'project'))) {
    const info = readJson(join(storage, 'project', file), '', [])
    if (info && typeof info.worktree === 'string') worktrees.set(basename(file, '.json'), info.worktree)
  }
  const found: Directories = new Map()
  for (const project of folders(join(storage, 'session'))) {
    for (const file of jsonFiles(join(storage, 'session', project))) {
      const info = readJson(join(storage, 'session', project, file), '', [])
      const directory = typeof info?.directory === 'string' && info.directory !== '' ? info.directory : worktrees.get(project)
      const time = isRecord(info?.time) ? (info.time.updated ?? info.time.created) : undefined
      if (directory && directory !== '/') addDirectory(found, directory, time)
    }
  }
  return found
}

/** The directories a store's sessions ran in → the latest update of those sessions (null: none recorded). */
export type Directories = Map<string, number | null>

export function addDirectory(found: Directories, directory: string, time: unknown): void {
  found.set(directory, latest([found.get(directory) ?? null, typeof time === 'number' && Number.isFinite(time) && time > 0 ? time : null]))
}

export function latest(times: (number | null)[]): number | null {
  return times.reduce<number | null>((max, time) => (time !== null && (max === null || time > max) ? time : max), null)
}

function readMessages(storage: string, sessionId: string, problems: string[]): OpenCodeMessage[] {
  const messages: OpenCodeMessage[] = []
  for (const file of jsonFiles(join(storage, 'message', sessionId))) {
    const info = readJson(join(storage, 'message', sessionId, file), `message/${sessionId}/${file}`, problems)
    if (!info) continue
    const id = basename(file, '.json')
    const parts: OpenCodePart[] = []
    for (const partFile of jsonFiles(join(storage, 'part', id))) {
      const data = readJson(join(storage, 'part', id, partFile), `part/${id}/${partFile}`, problems)
      if (data) parts.push({ id: basename(partFile, '.json'), data })
    }
    messages.push({ id, info, parts: parts.sort(byId) })
  }
  return messages.sort(byId)
}

function readJson(path: string, label: string, problems: string[]): Record<string, unknown> | null {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    problems.push(`${label}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`)
    return null
  }
  try {
    const value = JSON.parse(text) as unknown
    if (isRecord(value)) return value
    problems.push(`${label}: not a JSON object; skipped`)
  } catch (error) {
    problems.push(`${label}: not valid JSON (${(error as Error).message}); skipped`)
  }
  return null
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  } catch {
    return []
  }
}

/** OpenCode writes through `.oc-<name>.<pid>.<time>.tmp` files renamed into place: only `*.json` count. */
function jsonFiles(dir: string): string[] {
  return entries(dir)
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json') && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
}

function folders(dir: string): string[] {
  return entries(dir)
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
}
