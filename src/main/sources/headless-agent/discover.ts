import { realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import type { HistoryFile } from '../adapter'
import { isDirectory, isFile, statOrNull } from '../../fs/stat'

/**
 * The agent home: `$AGENT_HOME` when set, else `~/.agent` (seed ch. 6: `~/.agent/sessions.db`,
 * `~/.agent/memory.json`, `~/.agent/checkpoints/`). The seed's TOML overrides (`[session]
 * database`, `[memory] path`, `[checkpoints] path`) are not followed: it never says where that
 * config file lives.
 */
export function headlessAgentRoots(env: NodeJS.ProcessEnv): string[] {
  const configured = env.AGENT_HOME?.trim()
  return [configured ? configured : join(env.HOME ?? homedir(), '.agent')]
}

/**
 * The agent's sessions belong to the workspace that is its home. Its sessions table records no
 * working directory (seed ch. 6 › Schema), so no other folder can claim them. A folder is taken
 * for an agent home when it is one of the roots, or holds `sessions.db` beside `memory.json` or a
 * `checkpoints/` folder (the layout the seed describes) — a lone `sessions.db` is too common a
 * name to read every project's as the agent's.
 */
export function discoverHeadlessAgentWorkspace(workspacePath: string, roots: string[]): Promise<HistoryFile[]> {
  const isRoot = roots.some((root) => samePath(root, workspacePath))
  const looksLikeHome = isFile(join(workspacePath, 'memory.json')) || isDirectory(join(workspacePath, 'checkpoints'))
  return Promise.resolve(isRoot || looksLikeHome ? historyFile(workspacePath) : [])
}

/** Every root's database, into the workspace of the home folder itself. */
export function discoverHeadlessAgentFiles(roots: string[]): Promise<HistoryFile[]> {
  return Promise.resolve(roots.flatMap((root) => historyFile(resolve(root))))
}

function historyFile(home: string): HistoryFile[] {
  const path = join(home, 'sessions.db')
  const db = statOrNull(path)
  if (!db?.isFile()) return []
  const wal = statOrNull(`${path}-wal`)
  const memory = statOrNull(join(home, 'memory.json'))
  // Retention cleanup removes a session's checkpoint folder without touching the database: the folder's time says so.
  const checkpoints = statOrNull(join(home, 'checkpoints'))
  return [
    {
      source: 'headless-agent',
      path,
      sessionId: path,
      role: 'main',
      cwd: home,
      backupDir: null,
      // A running agent in WAL mode grows the -wal file, not the database, until a checkpoint.
      fingerprint: [db.size, db.mtimeMs, wal?.size ?? 0, wal?.mtimeMs ?? 0, memory?.size ?? 0, memory?.mtimeMs ?? 0, checkpoints?.mtimeMs ?? 0].join(':')
    }
  ]
}

function samePath(a: string, b: string): boolean {
  return canonical(a) === canonical(b)
}

function canonical(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return resolve(path)
  }
}

