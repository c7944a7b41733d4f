import { isAbsolute, resolve, sep } from 'node:path'
import type { HistoryFile, SourceAdapter, SourceName } from './adapter'
import type { DiscoveryCache } from './discovery-cache'
import { adaptersFor } from './registry'

export interface FoundFile {
  adapter: SourceAdapter
  file: HistoryFile
}

/**
 * Every history file under the sources' own folders (CLAUDE_CONFIG_DIR, CODEX_HOME…), grouped by
 * the folder its session recorded as its cwd: the workspace `import --all` imports it into, and
 * `retrace workspaces` lists. Discovery reads only each file's head. A sub-agent goes where the
 * session that started it went, whatever cwd it recorded itself. Whether the folder still exists
 * plays no part: a history outlives its folder. The files that record no folder go into
 * `unplaced` when it is given (`import --all` says how many it could not place).
 */
export async function discoverRecordedWorkspaces(env: NodeJS.ProcessEnv, only?: SourceName[], signal?: AbortSignal, cache?: DiscoveryCache, unplaced?: FoundFile[]): Promise<Map<string, FoundFile[]>> {
  const byCwd = new Map<string, FoundFile[]>()
  for (const adapter of adaptersFor(only)) {
    const files = await adapter.discoverAll(adapter.roots(env), signal, cache)
    for (const [cwd, recorded] of groupByRecordedCwd(files)) {
      if (cwd === null) {
        unplaced?.push(...recorded.map((file) => ({ adapter, file })))
        continue
      }
      const list = byCwd.get(cwd) ?? []
      list.push(...recorded.map((file) => ({ adapter, file })))
      byCwd.set(cwd, list)
    }
  }
  return byCwd
}

/**
 * One source's files grouped by the folder their session recorded as its cwd (normalised); a
 * sub-agent goes with the session that started it. Null holds the files that recorded none.
 */
export function groupByRecordedCwd(files: readonly HistoryFile[]): Map<string | null, HistoryFile[]> {
  const byCwd = new Map<string | null, HistoryFile[]>()
  const cwdOfSession = new Map(files.filter((f) => f.role === 'main' && f.cwd).map((f) => [f.sessionId, f.cwd as string]))
  for (const file of files) {
    const recorded = file.role === 'sub-agent' ? (cwdOfSession.get(file.rootSessionId ?? file.parentSessionId ?? '') ?? file.cwd) : file.cwd
    const cwd = recorded ? normalisedFolder(recorded) : null
    const list = byCwd.get(cwd) ?? []
    list.push(file)
    byCwd.set(cwd, list)
  }
  return byCwd
}

/** Whether a recorded cwd is the folder (a workspace's) or a folder inside it. */
export function isInsideWorkspace(cwd: string, workspacePath: string): boolean {
  const root = normalisedFolder(workspacePath)
  return cwd === root || cwd.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)
}

/**
 * One spelling per folder (`/a/b/` and `/a/./b` are `/a/b`), so a recorded cwd meets the workspace
 * a user typed. Only absolute paths: anything else is kept as written, for the workspace check to refuse.
 */
export function normalisedFolder(path: string): string {
  return isAbsolute(path) ? resolve(path) : path
}
