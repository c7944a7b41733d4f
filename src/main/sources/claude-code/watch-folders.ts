import { join } from 'node:path'
import type { WatchedFolder } from '../adapter'
import { claudeRoots } from './discover'

const SESSION_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i
const AGENT_FILE = /^agent-.+\.jsonl$/
/** As deep as discovery looks: projects/<folder>/<session>/subagents/workflows/<run>/agent-<id>.jsonl. */
const PROJECTS_DEPTH = 5

/**
 * What of CLAUDE_CONFIG_DIR (~/.claude) a change there can change an import of: `projects/`
 * as discovery walks it (sessions, loose agents, `<session>/subagents/`), and the folders of
 * `file-history/` (one per session: discovery notes whether a session has one, `backupDir`).
 * Not watched, and no reason for a full pass: todos/, debug/, shell-snapshots/, statsig/,
 * plugins/, a project's memory/, a session's tool-results/, and the backups inside each
 * file-history folder, because the importer reads a backup or a saved output only when it
 * reads the transcript line that names it, which Claude Code writes after the file, so the
 * line's own event brings it in.
 */
export function claudeWatchFolders(env: NodeJS.ProcessEnv): WatchedFolder[] {
  return claudeRoots(env).flatMap((root) => [
    { folder: join(root, 'projects'), depth: PROJECTS_DEPTH, holds: holdsTranscripts },
    { folder: join(root, 'file-history'), depth: 0 }
  ])
}

/** `parts` below projects/: a project folder, a session or loose agent file in it, a session's subagents/. */
export function holdsTranscripts(parts: readonly string[]): boolean {
  const [, entry, inSession] = parts
  if (entry === undefined) return true
  if (inSession === undefined) return SESSION_FILE.test(entry) || AGENT_FILE.test(entry) || SESSION_FILE.test(`${entry}.jsonl`)
  return inSession === 'subagents'
}
