import { existsSync } from 'node:fs'
import { dirname, isAbsolute, join, parse, sep } from 'node:path'
import { isRecord } from '../plain-data'
import { type StoreDb } from './store-db'
import { sessionOfEntry } from './links'

/**
 * y-agent records no working directory for a session: its store is per user, not per project.
 * What it does record are the absolute paths its tools touched (journal entries, tool-call
 * arguments in traces). A tree of sessions (a root and everything below it) worked in the
 * folder that holds all of them: their common folder, or the git repository around it (an agent
 * that only touched `src/` still worked in the project). Null when a tree touched no file.
 */
export function workingDirs(db: StoreDb): Map<string, string | null> {
  const rootOf = treeRoots(db)
  const paths = new Map<string, string[]>()
  const add = (sessionId: string | null | undefined, path: unknown) => {
    if (!sessionId || typeof path !== 'string' || !isAbsolute(path) || path.includes('…')) return
    const root = rootOf.get(sessionId)
    if (root === undefined) return
    const list = paths.get(root) ?? []
    list.push(path)
    paths.set(root, list)
  }
  for (const entry of db.entries) {
    const session = sessionOfEntry(db, entry)
    add(session, entry.filePath)
    add(session, entry.fromPath)
  }
  const traceSession = new Map(db.traces.map((trace) => [trace.id, trace.sessionId]))
  for (const observation of db.observations) {
    if (observation.type !== 'tool_call' || !isRecord(observation.input)) continue
    const session = observation.sessionId ?? traceSession.get(observation.traceId)
    for (const key of ['path', 'from', 'to']) add(session, observation.input[key])
  }
  const dirs = new Map<string, string | null>()
  for (const [sessionId, root] of rootOf) {
    const list = paths.get(root)
    dirs.set(sessionId, list ? projectFolder(list) : null)
  }
  return dirs
}

/** Each session's tree root: follow `parent_id` up (a missing parent or a cycle ends the walk). */
export function treeRoots(db: StoreDb): Map<string, string> {
  const parent = new Map(db.sessions.map((session) => [session.id, session.parentId]))
  const roots = new Map<string, string>()
  for (const session of db.sessions) {
    let at = session.id
    const seen = new Set<string>([at])
    for (let up = parent.get(at); up && parent.has(up) && !seen.has(up); up = parent.get(at)) {
      seen.add(up)
      at = up
    }
    roots.set(session.id, at)
  }
  return roots
}

function projectFolder(paths: string[]): string {
  const common = commonFolder(paths.map((path) => dirname(path)))
  for (let at = common; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at
    if (dirname(at) === at) return common
  }
}

function commonFolder(folders: string[]): string {
  const split = (folder: string) => folder.slice(parse(folder).root.length).split(sep).filter(Boolean)
  const first = folders[0] ?? sep
  const root = parse(first).root
  let common = split(first)
  for (const folder of folders.slice(1)) {
    if (parse(folder).root !== root) return root
    const parts = split(folder)
    let same = 0
    while (same < common.length && same < parts.length && common[same] === parts[same]) same += 1
    common = common.slice(0, same)
  }
  return join(root, ...common)
}
