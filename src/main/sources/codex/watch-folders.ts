import { join } from 'node:path'
import type { WatchedFolder } from '../adapter'
import { codexRoots } from './discover'

/** As deep as discovery walks them (sessions/YYYY/MM/DD today). */
const ROLLOUTS_DEPTH = 6

/**
 * What of CODEX_HOME (~/.codex) a change there can change an import of: the rollouts
 * (`sessions/`, `archived_sessions/`) and `session_index.jsonl` (the threads' names, read by
 * discovery), which sits at the top beside history.jsonl, log/ and the rest Codex writes on
 * every prompt: the top is watched alone, for that one file.
 */
export function codexWatchFolders(env: NodeJS.ProcessEnv): WatchedFolder[] {
  return codexRoots(env).flatMap((root) => [
    { folder: join(root, 'sessions'), depth: ROLLOUTS_DEPTH },
    { folder: join(root, 'archived_sessions'), depth: ROLLOUTS_DEPTH },
    { folder: root, depth: 0, holds: (parts: readonly string[]) => parts[0] === 'session_index.jsonl' }
  ])
}
