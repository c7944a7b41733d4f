import { createHash } from 'node:crypto'
import { readdirSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import type { HistoryFile } from '../adapter'
import { isWithin } from '../files'
import { prefixesOf, PROMPT_LOG, SETTLE_MS } from './prompt-log-file'
import { SAVED_CHAT_FILE } from './saved-chat'
import { isDirectory } from '../../fs/stat'
import { readConfigText } from '../../fs/config-file.mts'

/** `session-<YYYY-MM-DDTHH-MM>-<8 chars of the id>.json` (legacy) or `.jsonl` (current). */
const SESSION_FILE = /^session-.+\.jsonl?$/
/** A sub-agent's transcript: `chats/<parent session id>/<its session id>.jsonl`. */
const SUB_AGENT_FILE = /^[^.][^/\\]*\.jsonl$/
const STARTED = /^session-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})/

/**
 * Gemini CLI keeps everything in `~/.gemini` (`Storage.getGlobalGeminiDir`), where `~` is
 * `GEMINI_CLI_HOME` when set, else the user's home (`homedir()` of packages/core utils/paths.ts)
 * — the same on Linux, macOS and Windows (`%USERPROFILE%\.gemini`).
 */
export function geminiRoots(env: NodeJS.ProcessEnv): string[] {
  const configured = env.GEMINI_CLI_HOME?.trim()
  const home = configured || env.HOME || env.USERPROFILE || homedir()
  return [join(home, '.gemini')]
}

/**
 * The project folders of `<root>/tmp/`: sessions are in `tmp/<project id>/chats/`. The id was
 * the SHA-256 of the project root (older versions), now a short slug listed in `projects.json`
 * (`{"projects": {"<root>": "<slug>"}}`, ProjectRegistry) and named in `tmp/<slug>/.project_root`.
 * A hash cannot be reversed: such folders are matched to a workspace by hashing its path.
 */
function projectFolders(root: string): { id: string; dir: string; project: string | null }[] {
  const tmp = join(root, 'tmp')
  const registered = new Map<string, string>()
  for (const [project, slug] of Object.entries(registry(root))) registered.set(slug, project)
  return names(tmp)
    .filter((id) => id !== 'bin' && isDirectory(join(tmp, id)))
    .map((id) => ({ id, dir: join(tmp, id), project: readProjectRoot(join(tmp, id)) ?? registered.get(id) ?? null }))
}

/**
 * Every session file of every project (`retrace import --all`): cwd known where the folder names
 * it. A folder known only by its hash has no cwd: its chats are found when their workspace is
 * opened, and its prompt log (no session of its own) is left for then too.
 */
export function discoverGeminiFiles(roots: string[]): Promise<HistoryFile[]> {
  return Promise.resolve(roots.flatMap((root) => projectFolders(root).flatMap((folder) => sessionFiles(folder.dir, folder.project, folder.project !== null))))
}

/** The sessions of one workspace: the project folders whose id is its hash or slug, or whose root it is. */
export function discoverGeminiWorkspace(workspacePath: string, roots: string[]): Promise<HistoryFile[]> {
  const workspace = resolve(workspacePath)
  const hashes = new Set([projectHash(workspace), projectHash(workspace.toLowerCase())])
  return Promise.resolve(
    roots.flatMap((root) => {
      const slug = registry(root)[process.platform === 'win32' ? workspace.toLowerCase() : workspace]
      return projectFolders(root)
        .filter((folder) => hashes.has(folder.id) || folder.id === slug || (folder.project !== null && isWithin(folder.project, workspace)))
        .flatMap((folder) => sessionFiles(folder.dir, folder.project ?? workspace))
    })
  )
}

/** Gemini CLI's project hash (`getProjectHash`): SHA-256 of the project root as given. */
export function projectHash(projectRoot: string): string {
  return createHash('sha256').update(projectRoot).digest('hex')
}

/**
 * The session files of one project folder. A legacy `.json` that was resumed was copied whole
 * into a `.jsonl` of the same name, which Gemini CLI writes from then on: the session keeps the
 * `.json`'s name (so what an earlier import made of it is replaced, not added to) and is read
 * from the `.jsonl` (adapter.ts), whose changes its fingerprint follows.
 */
function sessionFiles(dir: string, cwd: string | null, withPromptLog = true): HistoryFile[] {
  // Chats saved with `/chat save <tag>`, beside chats/ (saved-chat.ts).
  const saved = names(dir)
    .filter((name) => SAVED_CHAT_FILE.test(name))
    .flatMap((name) => historyFile(join(dir, name), cwd, null, undefined))
  const chats = join(dir, 'chats')
  const all = names(chats)
  const files = all.filter((name) => SESSION_FILE.test(name) && !(name.endsWith('.jsonl') && all.includes(name.slice(0, -1))))
  const main = files.flatMap((name) => historyFile(join(chats, name), cwd, null, startedOf(name), all.includes(`${name}l`) ? join(chats, `${name}l`) : undefined))
  const subAgents = all
    .filter((name) => isDirectory(join(chats, name)))
    .flatMap((parent) => {
      // Read again whenever the parent is: its rewritten session takes a new place for the call.
      const parentFile = main.find((file) => file.path.endsWith(`-${parent.slice(0, 8)}.jsonl`) || file.path.endsWith(`-${parent.slice(0, 8)}.json`))
      return names(join(chats, parent))
        .filter((name) => SUB_AGENT_FILE.test(name))
        .flatMap((name) => historyFile(join(chats, parent, name), cwd, parent, undefined))
        .map((file) => ({ ...file, fingerprint: `${file.fingerprint ?? ''}|${parentFile?.fingerprint ?? ''}` }))
    })
  return [...main, ...saved, ...subAgents, ...(withPromptLog ? promptLog(dir, cwd, all) : [])]
}

/**
 * The project's prompt log (prompt-log-file.ts), read for the sessions without a recording: again
 * when a session's recording comes or goes, and a minute after its last change (a new session waits).
 */
function promptLog(dir: string, cwd: string | null, chats: string[]): HistoryFile[] {
  return historyFile(join(dir, PROMPT_LOG), cwd, null, undefined).map((file) => {
    const settled = Date.now() - (file.startedAt ?? 0) >= SETTLE_MS ? 'settled' : 'fresh'
    const recordings = createHash('sha256').update([...prefixesOf(chats)].sort().join('/')).digest('hex')
    return { ...file, fingerprint: `${file.fingerprint ?? ''}:${settled}|${recordings}` }
  })
}

function historyFile(path: string, cwd: string | null, parentSessionId: string | null, startedAt: number | undefined, readFrom = path): HistoryFile[] {
  let stats
  try {
    stats = statSync(readFrom)
  } catch {
    return []
  }
  if (!stats.isFile()) return []
  return [
    {
      source: 'gemini-cli',
      path,
      sessionId: path,
      // Sub-agents are imported after the sessions they hang below (import-order.ts).
      role: parentSessionId ? 'sub-agent' : 'main',
      cwd,
      backupDir: null,
      fingerprint: `${stats.size}:${stats.mtimeMs}`,
      ...(parentSessionId ? { parentSessionId } : {}),
      // Saved chats have no time in their name: when they were written.
      startedAt: startedAt ?? Math.floor(stats.mtimeMs)
    }
  ]
}

/** The minute a session started, from its file name (UTC): the import orders sessions by it. */
function startedOf(name: string): number | undefined {
  const match = STARTED.exec(name)
  if (!match) return undefined
  const ms = Date.parse(`${match[1]}T${match[2]}:${match[3]}:00Z`)
  return Number.isFinite(ms) ? ms : undefined
}

function registry(root: string): Record<string, string> {
  try {
    const parsed = JSON.parse(readConfigText(join(root, 'projects.json')) ?? '{}') as { projects?: unknown }
    const projects = parsed.projects
    if (!projects || typeof projects !== 'object') return {}
    return Object.fromEntries(Object.entries(projects).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
  } catch {
    return {}
  }
}

function readProjectRoot(dir: string): string | null {
  try {
    const text = readConfigText(join(dir, '.project_root'))?.trim()
    return text || null
  } catch {
    return null
  }
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir).sort()
  } catch {
    return []
  }
}

