import type { ImportSource } from '../../shared/contract'
import type { DiscoveryCache } from './discovery-cache'
import type { LineParser, SourceRecord } from './records'

/**
 * What an adapter knows of its agent's tools, by the names its format gives them. A call of a
 * `writes` tool must end as a journaled change or a change-not-captured record; a `shell` tool's
 * call as a shell-command record. A call of a tool in none of the lists whose input names a path
 * is reported as "unknown tool, may have changed files".
 */
export interface FileTools {
  writes: readonly string[]
  reads: readonly string[]
  shell: readonly string[]
}

/** The history sources Retrace imports (the list: shared/contract/sources.ts). */
export type SourceName = ImportSource

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
  /** For sub-agent files: the parent's tool call that started it, when the agent's own files say so. */
  startedBy?: string
  /**
   * For sub-agent files: the main session at the root of its tree, when the parent is itself a
   * sub-agent (an agent a sub-agent started). The files of the tree belong where that session does.
   */
  rootSessionId?: string
  /**
   * For sub-agent files: another name the parent's links may give it (Claude Code: the workflow
   * run `workflow:<runId>` it belongs to, which the `Workflow` call's result names).
   */
  linkedAs?: string
  /** For sub-agent files: the kind of agent (Claude Code's `agentType`: `Explore`, `general-purpose`…). */
  agentType?: string
  /** For sub-agent files: the model it was asked to run on, before its own lines say which one it did. */
  agentModel?: string
  /** A title the source gives the session outside its lines (a sub-agent's task description). */
  title?: string
  /** The session (and message) this one was forked from, when the file's first lines say so. */
  forkedFrom?: { sessionId: string; messageUid: string | null }
  /** Snapshot sources: the id the session had before it was read again (kept, so the window stays on it). */
  reuseUid?: string
  /** The source's id of the session this one continues (a conversation reset, as with `/new`). */
  continues?: string
  /** When the session started, from its first lines: sessions are imported oldest first. */
  startedAt?: number
  /** The working directory recorded in the file (what matches it to a workspace). */
  cwd: string | null
  /**
   * Folder of the source's own file backups for this session (Claude Code
   * `file-history/<session>/`), read-only; null when the source has none.
   */
  backupDir: string | null
  /**
   * Snapshot sources (a database rather than an append-only log): what changes whenever the store
   * does (sizes and times of the file and its WAL). Live following compares it instead of the size.
   */
  fingerprint?: string
  /**
   * When this history was last written to, by its own word, where the file's time cannot say it:
   * a store shared by several folders (OpenCode's database) gives the latest update of the
   * sessions that ran in `cwd`. The workspace list uses it before the file's modification time.
   */
  lastActivityAt?: number
  /**
   * Names the file's content wherever it is and in whichever form, when the source moves or
   * recompresses its files (a Codex rollout's file name without `.zst`): a file found at a new
   * path with the key of one imported before continues that import (moved-files.ts).
   */
  contentKey?: string
  /**
   * A history the source keeps in several files: the earlier ones (Codex's rotated rollout
   * segments, docs/formats.md §2.2), oldest first, each read from `from` (the first from its
   * start, the others past the lines that repeat the header and name the one before). The file
   * continues them from `from`. The session is their concatenation: one import, one session.
   */
  segments?: { pieces: { path: string; from: number }[]; from: number }
}

/**
 * One session read whole from a snapshot source: the records of its transcript, and what
 * identifies this state of it (the session is imported again, replacing itself, when it changes).
 */
export interface SnapshotSession {
  /** The source's id of the session, unique within its store. */
  key: string
  fingerprint: string
  forkedFrom: { sessionId: string; messageUid: string | null } | null
  /** The key of the session this one continues after a reset (`/new`), if any. */
  continues?: string
  startedAt: number | undefined
  records: SourceRecord[]
  /**
   * This session (a branch) was merged into another session of the same store (Code Buddy's
   * `merge`, whose result the target's messages already hold): recorded as a merge edge once both
   * are imported. `firstUid` is the target's first record the merge added, `messageCount` how many.
   */
  mergedInto?: { sessionId: string; mode: 'append' | 'replace'; firstUid: string; messageCount: number; createdAt?: number }
}

export interface SnapshotRead {
  sessions: SnapshotSession[]
  problems: string[]
}

/**
 * A folder whose changes can change what a source imports, for a running app's watch of the
 * agents' folders (history-watch.ts, R75): the rest of a shared folder (~/.claude's todos/,
 * ~/.codex's history.jsonl) is neither watched nor a reason for a full pass.
 */
export interface WatchedFolder {
  folder: string
  /** How many folders below it are watched too: 0 watches only its own entries. */
  depth: number
  /**
   * Whether the path below `folder` (its names, top first) is, or can hold, what the importer
   * reads. Told by names alone (the path may be gone): a folder it refuses is not watched, an
   * event on a path it refuses is ignored. Without it, every path.
   */
  holds?: (parts: readonly string[]) => boolean
}

/**
 * A history kept in a database or a set of JSON files that change in place (LangGraph
 * checkpoints): each import reads the store whole, read-only, and re-imports the sessions whose
 * fingerprint changed. Discovery finds the stores; `read` turns one into sessions.
 */
export interface SnapshotSourceAdapter {
  readonly kind: 'snapshot'
  readonly name: SourceName
  readonly label: string
  /** Set while the importer is built from the agent's writer only, not yet tested on real files of it. */
  readonly fromWriterSourceOnly?: true
  /** Which of the agent's tools change files and which only read (the accounting rule: file-tools.ts). */
  readonly fileTools?: FileTools
  roots(env: NodeJS.ProcessEnv): string[]
  /** The folders a running app watches for this source's changes; without it, every folder under the roots. */
  watchFolders?(env: NodeJS.ProcessEnv): WatchedFolder[]
  discoverAll(roots: string[], signal?: AbortSignal, cache?: DiscoveryCache): Promise<HistoryFile[]>
  discover(workspacePath: string, roots: string[], signal?: AbortSignal, cache?: DiscoveryCache): Promise<HistoryFile[]>
  /** A store kept in SQLite is read in a process of its own (foreign-db/): asynchronously. */
  read(file: HistoryFile): SnapshotRead | Promise<SnapshotRead>
}

/**
 * One history format. Discovery and parsing only: writing into the store is the importer's job,
 * the same for every source, so every adapter's output goes through the same validation.
 */
export interface LineSourceAdapter {
  readonly kind?: 'lines'
  readonly name: SourceName
  readonly label: string
  /** Set while the importer is built from the agent's writer only, not yet tested on real files of it. */
  readonly fromWriterSourceOnly?: true
  /** Which of the agent's tools change files and which only read (the accounting rule: file-tools.ts). */
  readonly fileTools?: FileTools
  /** The folders this source keeps its histories in (from its environment variable or the default). */
  roots(env: NodeJS.ProcessEnv): string[]
  /** The folders a running app watches for this source's changes; without it, every folder under the roots. */
  watchFolders?(env: NodeJS.ProcessEnv): WatchedFolder[]
  /**
   * Every history file under the roots, with the cwd it records (for `import --all`). A source
   * with many files remembers what it read of each in `cache` (see discovery-cache.ts).
   */
  discoverAll(roots: string[], signal?: AbortSignal, cache?: DiscoveryCache): Promise<HistoryFile[]>
  /** The history files of one workspace folder (absolute, real path). */
  discover(workspacePath: string, roots: string[], signal?: AbortSignal, cache?: DiscoveryCache): Promise<HistoryFile[]>
  /**
   * `file.path`: the history file the parser reads, for a source that keeps more beside it (Copilot
   * CLI's rewind snapshots next to its `events.jsonl`). Its lines still come only through `feed`.
   */
  createParser(state?: unknown, file?: { path: string }): LineParser
  /**
   * For a source that keeps one history in several files: the file's segments as they are now
   * (HistoryFile.segments). The importer asks when it finds a file replaced since discovery
   * listed it (a live import between two discoveries), before dropping what it imported of it.
   */
  segments?(path: string): HistoryFile['segments']
}

export type SourceAdapter = LineSourceAdapter | SnapshotSourceAdapter
