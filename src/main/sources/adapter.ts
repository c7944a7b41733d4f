import type { LineParser } from './records'

/** The history sources Retrace imports. */
export type SourceName = 'claude-code' | 'codex'

/** One foreign history file found for a workspace. */
export interface HistoryFile {
  source: SourceName
  /** Absolute path; opened read-only, never written. */
  path: string
  /** The source's id of the session this file holds (Claude Code session uuid, Codex rollout id). */
  sessionId: string
  /** A sub-agent's transcript lives in its own file, linked to the session that started it. */
  role: 'main' | 'sub-agent'
  /** For sub-agent files: the parent session's id and the agent id the parent's tool result names. */
  parentSessionId?: string
  agentId?: string
  /** For sub-agent files: the parent session's file (its import state holds the links). */
  parentPath?: string
  /** The session (and message) this one was forked from, when the file's first lines say so. */
  forkedFrom?: { sessionId: string; messageUid: string | null }
  /** When the session started, from its first lines: sessions are imported oldest first. */
  startedAt?: number
  /** The working directory recorded in the file (what matches it to a workspace). */
  cwd: string | null
  /**
   * Folder of the source's own file backups for this session (Claude Code
   * `file-history/<session>/`), read-only; null when the source has none.
   */
  backupDir: string | null
}

/**
 * One history format. Discovery and parsing only: writing into the store is the importer's job,
 * the same for every source, so every adapter's output goes through the same validation.
 */
export interface SourceAdapter {
  readonly name: SourceName
  readonly label: string
  /** The folders this source keeps its histories in (from its environment variable or the default). */
  roots(env: NodeJS.ProcessEnv): string[]
  /** Every history file under the roots, with the cwd it records (for `import --all`). */
  discoverAll(roots: string[], signal?: AbortSignal): Promise<HistoryFile[]>
  /** The history files of one workspace folder (absolute, real path). */
  discover(workspacePath: string, roots: string[], signal?: AbortSignal): Promise<HistoryFile[]>
  createParser(state?: unknown): LineParser
}
