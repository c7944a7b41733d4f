import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { isFile } from '../../fs/stat'

/**
 * A CianaParrot deployment folder (seed 000, "Persistence"): `data/` holds the runtime state
 * (checkpoints.db, session logs, counters, scheduled tasks, Claude Code user states) and
 * `workspace/` the agent's sandbox with its memory files. Everything is read, never written.
 */
export interface Deployment {
  root: string
  data: string
  checkpointsDb: string
}

const MARKERS = ['data/session_counters.json', 'data/sessions', 'data/scheduled_tasks.json', 'data/cc_user_states.json', 'workspace/IDENTITY.md', 'workspace/AGENT.md']

/** `root` is a CianaParrot deployment when it has data/checkpoints.db and one of CianaParrot's own files beside it. */
export function deploymentAt(root: string): Deployment | null {
  const checkpointsDb = join(root, 'data', 'checkpoints.db')
  if (!isFile(checkpointsDb)) return null
  if (!MARKERS.some((marker) => existsSync(join(root, marker)))) return null
  return { root, data: join(root, 'data'), checkpointsDb }
}

/** What changes whenever anything Retrace reads from the deployment does. */
export function deploymentFingerprint(deployment: Deployment): string {
  const parts: string[] = []
  const add = (path: string) => {
    try {
      const stats = statSync(path)
      parts.push(`${path}:${stats.size}:${stats.mtimeMs}`)
    } catch {
      parts.push(`${path}:-`)
    }
  }
  for (const name of ['checkpoints.db', 'checkpoints.db-wal', 'scheduled_tasks.json', 'session_counters.json']) add(join(deployment.data, name))
  for (const log of sessionLogNames(deployment)) add(join(deployment.data, 'sessions', log))
  return parts.join('|')
}

export function sessionLogNames(deployment: Deployment): string[] {
  try {
    return readdirSync(join(deployment.data, 'sessions')).filter((name) => name.endsWith('.jsonl')).sort()
  } catch {
    return []
  }
}

/** A JSON file of the deployment: its value, null when absent, or the reason it could not be read. */
export function readJsonFile(path: string): { value: unknown } | { problem: string } | null {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    return { problem: `${path} cannot be read (${(error as Error).message})` }
  }
  try {
    return { value: JSON.parse(text) as unknown }
  } catch (error) {
    return { problem: `${path} is not valid JSON (${(error as Error).message})` }
  }
}

