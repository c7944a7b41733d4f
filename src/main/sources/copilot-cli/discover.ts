import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { basename, isAbsolute, join, resolve } from 'node:path'
import type { HistoryFile } from '../adapter'
import type { DiscoveryCache } from '../discovery-cache'
import { isWithin, listDir, readHeadObjects } from '../files'
import { readWorkspaceYaml } from './workspace-yaml'

const LEGACY_FILE = /^[0-9A-Za-z][\w-]*\.jsonl$/

/**
 * Where Copilot CLI keeps its sessions: `$COPILOT_HOME/session-state` when set, else
 * `~/.copilot/session-state` (`%USERPROFILE%\.copilot` on Windows; the same on every platform).
 * The 0.0.x releases kept their state under `$XDG_STATE_HOME/.copilot` when that was set, and 1.0
 * and later move it home when they start: a folder not yet moved is read too.
 */
export function copilotRoots(env: NodeJS.ProcessEnv): string[] {
  const configured = env.COPILOT_HOME?.trim()
  const home = env.HOME ?? env.USERPROFILE ?? homedir()
  const roots = [join(configured ? configured : join(home, '.copilot'), 'session-state')]
  const xdgState = env.XDG_STATE_HOME?.trim()
  if (xdgState) roots.push(join(xdgState, '.copilot', 'session-state'))
  return [...new Set(roots)]
}

/** The shape of the facts discovery keeps (a store's older ones, without the repository root or the name, are read again). */
const FACTS_VERSION = 2

interface SessionFacts {
  v?: number
  id: string | null
  /** Where the session belongs: its repository's root, else the folder it started in. */
  cwd: string | null
  /** The folder it started in, when that is not `cwd` (a subfolder of the repository). */
  startedIn?: string
  startedAt?: number
  title?: string
}

/**
 * Every session: `<root>/<id>/events.jsonl` (0.0.37x on) and `<root>/<id>.jsonl` (before). A
 * folder added as this source's history may be the Copilot home itself: its `session-state` too.
 */
export async function discoverCopilotFiles(roots: string[], signal?: AbortSignal, cache?: DiscoveryCache): Promise<HistoryFile[]> {
  return (await discoverSessions(roots, signal, cache)).map(({ file }) => file)
}

/**
 * The sessions of a workspace: those placed in it (their repository's root, else their folder,
 * inside it) and those started in a folder inside it, though placed in a repository above it.
 */
export async function discoverCopilotWorkspace(workspacePath: string, roots: string[], signal?: AbortSignal, cache?: DiscoveryCache): Promise<HistoryFile[]> {
  const inside = (folder: string | null) => folder !== null && isWithin(folder, workspacePath)
  return (await discoverSessions(roots, signal, cache)).filter(({ file, startedIn }) => inside(file.cwd) || inside(startedIn)).map(({ file }) => file)
}

async function discoverSessions(roots: string[], signal?: AbortSignal, cache?: DiscoveryCache): Promise<{ file: HistoryFile; startedIn: string | null }[]> {
  const found: { file: HistoryFile; startedIn: string | null }[] = []
  const folders = roots.flatMap((root) => (basename(root) === 'session-state' ? [root] : [root, join(root, 'session-state')]))
  for (const root of folders) {
    for (const entry of await listDir(root)) {
      signal?.throwIfAborted()
      const folder = join(root, entry.name)
      const path = entry.isDirectory() ? join(folder, 'events.jsonl') : entry.isFile() && LEGACY_FILE.test(entry.name) ? folder : null
      if (path === null) continue
      const read = () => sessionFacts(path, entry.isDirectory() ? folder : null)
      const facts = await (cache ? cache.facts(path, read, (known) => known === null || known.v === FACTS_VERSION) : read())
      if (!facts) continue
      const sessionId = facts.id ?? basename(entry.name, '.jsonl')
      const file: HistoryFile = { source: 'copilot-cli', path, sessionId, role: 'main', cwd: facts.cwd, backupDir: null, ...(facts.startedAt !== undefined ? { startedAt: facts.startedAt } : {}), ...(facts.title ? { title: facts.title } : {}) }
      found.push({ file, startedIn: facts.startedIn ?? facts.cwd })
    }
  }
  return found
}

/**
 * The session's id, folder, start and name: `workspace.yaml` first (it follows `/cwd` changes),
 * then the `session.start` event. The folder is the git repository's root when the session started
 * inside one (`git_root`, `context.gitRoot`): Copilot's tools write anywhere in the repository, and
 * its files belong to the repository's workspace. The name is the one Copilot gave the session or
 * the user did (`name`, `user_named`). A file whose head holds no Copilot event is not a session.
 */
async function sessionFacts(path: string, folder: string | null): Promise<SessionFacts | null> {
  const head = await readHeadObjects(path, 20).catch(() => null)
  if (head === null) return null
  const yaml = folder ? readYaml(join(folder, 'workspace.yaml')) : {}
  const start = head.find((line) => line.type === 'session.start')
  const data = (start?.data ?? {}) as Record<string, unknown>
  const context = (data.context ?? {}) as Record<string, unknown>
  const isCopilot = start !== undefined || head.some((line) => typeof line.type === 'string' && 'data' in line)
  if (!isCopilot && Object.keys(yaml).length === 0) return null
  const startedAt = Date.parse(typeof data.startTime === 'string' ? data.startTime : (yaml.created_at ?? ''))
  const cwd = yaml.cwd ?? (typeof context.cwd === 'string' ? context.cwd : null)
  const gitRoot = yaml.git_root ?? (typeof context.gitRoot === 'string' ? context.gitRoot : undefined)
  return {
    v: FACTS_VERSION,
    id: typeof data.sessionId === 'string' ? data.sessionId : (yaml.id ?? null),
    ...(cwd !== null && gitRoot !== undefined && isRepositoryOf(gitRoot, cwd) && resolve(gitRoot) !== resolve(cwd) ? { cwd: gitRoot, startedIn: cwd } : { cwd }),
    ...(Number.isNaN(startedAt) ? {} : { startedAt }),
    ...(yaml.name ? { title: yaml.name } : {})
  }
}

/** A repository root holding the cwd; not one at `/` or the home folder (dotfiles), which is no workspace. */
function isRepositoryOf(gitRoot: string, cwd: string): boolean {
  if (!isAbsolute(gitRoot) || resolve(gitRoot) === resolve(gitRoot, '..') || resolve(gitRoot) === resolve(homedir())) return false
  return isWithin(cwd, gitRoot)
}

function readYaml(path: string): Record<string, string> {
  try {
    return readWorkspaceYaml(readFileSync(path, 'utf8'))
  } catch {
    return {}
  }
}
