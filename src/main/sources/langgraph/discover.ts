import { join } from 'node:path'
import type { HistoryFile } from '../adapter'
import { deploymentAt } from '../cianaparrot/deployment'
import { statOrNull } from '../../fs/stat'

/**
 * Where a project keeps its LangGraph SqliteSaver database, relative to the workspace folder:
 * the names the LangGraph docs and the apps we have seen use (CianaParrot: data/checkpoints.db).
 */
const CANDIDATES = ['checkpoints.sqlite', 'checkpoints.db', 'checkpoint.db', 'checkpoints.sqlite3', 'data/checkpoints.db', 'data/checkpoints.sqlite', '.langgraph/checkpoints.db']

/** `RETRACE_LANGGRAPH_DB`: extra database paths (path-list separated), wherever they are. */
export function langGraphRoots(env: NodeJS.ProcessEnv): string[] {
  return (env.RETRACE_LANGGRAPH_DB ?? '').split(process.platform === 'win32' ? ';' : ':').filter(Boolean)
}

/** The checkpoint databases of a workspace folder; their sessions belong to it. */
export function discoverLangGraphWorkspace(workspacePath: string): Promise<HistoryFile[]> {
  // A CianaParrot deployment's data/checkpoints.db is read by its own source, with CianaParrot's meaning.
  const claimed = deploymentAt(workspacePath)?.checkpointsDb
  return Promise.resolve(CANDIDATES.flatMap((name) => historyFile(join(workspacePath, name), workspacePath)).filter((file) => file.path !== claimed))
}

/** The databases named in RETRACE_LANGGRAPH_DB, each into the workspace of its folder. */
export function discoverLangGraphFiles(roots: string[]): Promise<HistoryFile[]> {
  return Promise.resolve(roots.flatMap((path) => historyFile(path, null)))
}

function historyFile(path: string, cwd: string | null): HistoryFile[] {
  const stats = statOrNull(path)
  if (!stats?.isFile()) return []
  const wal = statOrNull(`${path}-wal`)
  return [
    {
      source: 'langgraph',
      path,
      sessionId: path,
      role: 'main',
      cwd: cwd ?? join(path, '..'),
      backupDir: null,
      // A saver in WAL mode grows the -wal file, not the database, until a checkpoint.
      fingerprint: [stats.size, stats.mtimeMs, wal?.size ?? 0, wal?.mtimeMs ?? 0].join(':')
    }
  ]
}

