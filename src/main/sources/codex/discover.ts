import { homedir } from 'node:os'
import { join } from 'node:path'
import type { HistoryFile } from '../adapter'
import type { DiscoveryCache } from '../discovery-cache'
import { isWithin, readHeadObjects, walkFiles } from '../files'
import { legacyCwd, legacyLine } from './legacy-rollout'
import { oneFilePerRollout } from './rollout-files'

/** A rollout, plain or compressed whole by Codex once idle (`.jsonl.zst`, docs/formats.md §2.2). */
const ROLLOUT_FILE = /^rollout-.*\.jsonl(\.zst)?$/
/** Where Codex keeps rollouts: by date, and flat once archived (`codex archive`, or the app's). */
const ROLLOUT_FOLDERS = ['sessions', 'archived_sessions']

/** `CODEX_HOME` when set, else `~/.codex`. */
export function codexRoots(env: NodeJS.ProcessEnv): string[] {
  const configured = env.CODEX_HOME?.trim()
  return [configured ? configured : join(env.HOME ?? homedir(), '.codex')]
}

/**
 * Every rollout under `<root>/sessions` (dated folders, or flat in older releases) and
 * `<root>/archived_sessions`, plain or compressed: one file per rollout (rollout-files.ts).
 */
export async function discoverCodexFiles(roots: string[], signal?: AbortSignal, cache?: DiscoveryCache): Promise<HistoryFile[]> {
  const files: HistoryFile[] = []
  for (const root of roots) {
    const found: string[] = []
    for (const folder of ROLLOUT_FOLDERS) found.push(...(await walkFiles(join(root, folder), (name) => ROLLOUT_FILE.test(name), signal)))
    for (const { path, contentKey } of oneFilePerRollout(found)) {
      const meta = await (cache ? cache.facts(path, () => sessionMeta(path)) : sessionMeta(path))
      if (meta) {
        files.push({ source: 'codex', path, contentKey, sessionId: meta.id, role: 'main', cwd: meta.cwd, backupDir: null, ...(meta.forkedFrom ? { forkedFrom: { sessionId: meta.forkedFrom, messageUid: null } } : {}), ...(meta.startedAt !== undefined ? { startedAt: meta.startedAt } : {}) })
      }
    }
  }
  return files
}

export async function discoverCodexWorkspace(workspacePath: string, roots: string[], signal?: AbortSignal, cache?: DiscoveryCache): Promise<HistoryFile[]> {
  return (await discoverCodexFiles(roots, signal, cache)).filter((file) => file.cwd !== null && isWithin(file.cwd, workspacePath))
}

/**
 * The rollout's `session_meta` line: its id and cwd; in an old rollout (legacy-rollout.ts), its
 * header line and the cwd its first user message names. A file with neither is not a rollout.
 */
async function sessionMeta(path: string): Promise<{ id: string; cwd: string | null; forkedFrom: string | null; startedAt?: number } | null> {
  const head = await readHeadObjects(path, 5).catch(() => [])
  const first = legacyLine(head[0])
  if (first?.kind === 'header') {
    const { id, timestamp, cwd } = first.meta
    const startedAt = Date.parse(timestamp)
    return { id, cwd: typeof cwd === 'string' ? cwd : legacyCwd(head), forkedFrom: null, ...(Number.isNaN(startedAt) ? {} : { startedAt }) }
  }
  for (const line of head) {
    const payload = line.payload as Record<string, unknown> | undefined
    if (line.type === 'session_meta' && payload && typeof payload.id === 'string') {
      return {
        id: payload.id,
        cwd: typeof payload.cwd === 'string' ? payload.cwd : null,
        forkedFrom: typeof payload.forked_from_id === 'string' ? payload.forked_from_id : null,
        ...(typeof payload.timestamp === 'string' && !Number.isNaN(Date.parse(payload.timestamp)) ? { startedAt: Date.parse(payload.timestamp) } : {})
      }
    }
  }
  return null
}
