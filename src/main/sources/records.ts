import type { MessageRole, Usage } from '../../shared/contract'

/**
 * What a source parser makes of a foreign history file: a flat list of records, in file order,
 * each carrying the byte offset of the line it came from. Parsers are pure (no I/O, no store);
 * the importer turns records into sessions, messages, checkpoints and journal entries.
 *
 * A parser is fed one complete line at a time and keeps whatever state it needs (tool-call
 * pairing, usage de-duplication) in a plain JSON object, so an incremental import can resume
 * it at the byte where the previous import stopped.
 */

/** A message of the display transcript. `startsTurn` marks the user prompt that opens a turn. */
export interface MessageRecord {
  kind: 'message'
  offset: number
  /** The source's id of the line (Claude Code `uuid`), used to de-duplicate fork copies. */
  uid: string | null
  /** Claude Code `parentUuid` (null at the root or when the source has none). */
  parentUid: string | null
  /** Set on lines of a sub-agent (Claude Code `agentId` on sidechain lines). */
  agentId: string | null
  startsTurn: boolean
  role: Exclude<MessageRole, 'compaction_summary'>
  content: string
  toolName?: string
  toolCallId?: string
  toolInput?: unknown
  isError?: boolean
  model?: string
  /** De-duplicated: summed over records, each API response counts once (a later line carries only the increase). */
  usage?: Partial<Usage>
  createdAt?: number
  /** Images and documents kept beside the text, not inlined into it. */
  attachments?: Attachment[]
  /**
   * On the prompt that opens a turn: the source invalidated the turn's checkpoint (y-agent rolled
   * the turn back), so Retrace's checkpoint of that turn is marked invalidated too.
   */
  turnInvalidated?: boolean
}

export interface Attachment {
  mediaType: string
  /** base64 data, or null when the source only referred to it. */
  data: string | null
  name?: string
}

/**
 * A compaction: the summary becomes the start of the context transcript while the display
 * transcript keeps everything.
 */
export interface CompactionRecord {
  kind: 'compaction'
  offset: number
  uid: string | null
  /**
   * The message the compaction follows in the display transcript (Claude Code: the summary
   * line hangs below a `compact_boundary` whose `logicalParentUuid` names it).
   */
  parentUid?: string | null
  summary: string
  createdAt?: number
  /** Claude Code `compactMetadata`: 'manual' (`/compact`) or 'auto', and the context size before. */
  trigger?: string
  preTokens?: number
}

/** Facts about the session itself, learnt from any line; later values win. */
export interface SessionMetaRecord {
  kind: 'session-meta'
  offset: number
  sessionId?: string
  title?: string
  /** Where the title came from; a user's custom title beats a generated one. */
  titleOrigin?: 'custom' | 'ai' | 'summary' | 'first-prompt'
  /**
   * The title belongs to the session holding this message, wherever it is (Claude Code writes a
   * `summary` line naming its session's last message by `leafUuid`, most often in the file of a
   * later session). Absent: the title is this file's own session's.
   */
  titleLeafUid?: string
  cwd?: string
  model?: string
  gitBranch?: string
  createdAt?: number
  /** This session was forked from another one at that message. */
  forkedFrom?: { sessionId: string; messageUid: string | null }
  /**
   * This session hangs below another session of the same source without sharing its messages
   * (y-agent child, sub-agent and ephemeral sessions): the parent's source id, the kind the
   * session gets, and the parent's tool call that started it, if any. Read when the session is made.
   */
  parent?: { sessionId: string; kind: 'child' | 'sub-agent' | 'ephemeral'; toolCallId?: string }
}

/**
 * A tool call that started a sub-agent, and the agent id its transcript carries (Claude Code:
 * the Task tool's result names `agentId`).
 */
export interface SubAgentLinkRecord {
  kind: 'sub-agent-link'
  offset: number
  toolCallId: string
  agentId: string
  description?: string
}

/**
 * Claude Code file-history: the backups tracked at the start of the turn opened by user message
 * `messageUid` (a `file-history-snapshot` line; a later snapshot of the same message replaces
 * an earlier one), or one file added to it (`file-history-delta`: add-only).
 */
export interface FileBackupsRecord {
  kind: 'file-backups'
  offset: number
  messageUid: string
  mode: 'snapshot' | 'delta'
  files: FileBackup[]
}

export interface FileBackup {
  /** As written by the agent: absolute, or relative to the session's cwd. */
  path: string
  /** `<16 hex>@v<N>` in `file-history/<session>/`, or null: the file did not exist. */
  backupFileName: string | null
  version: number
  backupTime?: number
}

/**
 * A file's content before and after a tool call, rebuilt from what the tool reported (Claude
 * Code Edit/Write results, a Codex `apply_patch`). `null` = the file did not exist. When only
 * a patch is known and the before-content is not, `before` is undefined and `patch` holds it.
 */
export interface FileEditRecord {
  kind: 'file-edit'
  offset: number
  toolCallId: string | null
  /** As written by the agent: absolute, or relative to the session's cwd. */
  path: string
  /** For renames (Codex `*** Move to:`): the path before. */
  fromPath?: string
  before?: string | null
  after?: string | null
  /** A unified or apply_patch hunk text when the whole files are not known. */
  patch?: string
  /**
   * Exact string replacements, applied in order to the content known before (each `oldString`
   * found once, or every time with `replaceAll`), when the agent kept neither the file nor a
   * patch: a Claude Code Edit whose line has no result (string-edits.ts).
   */
  edits?: StringEdit[]
}

/** One exact replacement of an edit tool (Claude Code's Edit / MultiEdit `old_string` → `new_string`). */
export interface StringEdit {
  oldString: string
  newString: string
  replaceAll: boolean
}

/** A tool call that ran a shell command: files it changed are "not captured" unless a scan saw them. */
export interface ShellCommandRecord {
  kind: 'shell-command'
  offset: number
  toolCallId: string | null
  command: string
}

/**
 * A tool call or record that, in the agent's own format, changed (or may have changed) files,
 * but whose change cannot be journaled: the agent kept no content, its patch is unreadable, the
 * commit it names is absent, the tool is unknown… Stored against its turn and shown wherever
 * the turn's changes are (docs/reliability.md, the accounting rule), never dropped in silence.
 */
export interface ChangeNotCapturedRecord {
  kind: 'change-not-captured'
  offset: number
  toolCallId: string | null
  /** The tool as the agent names it (`write_to_file`, `NotebookEdit`, `Applied edit`…). */
  tool: string
  /** The file as written by the agent (absolute or relative to the session's cwd); null when unknown. */
  path: string | null
  /** Why it is not rewindable, as a sentence fragment: "the agent keeps no file content". */
  reason: string
}

/** A line the parser could not use, and why (reported by `retrace import --json`). */
export interface SkippedRecord {
  kind: 'skipped'
  offset: number
  reason: string
}

/**
 * Token usage reported apart from the message it measures (Codex `token_count` events, written
 * after the model response they count). Add it to the session's latest assistant message (the
 * last model output before this record), or to the session totals alone when there is none.
 * Already de-duplicated: the sum of a file's usage records is the file's total.
 */
export interface UsageRecord {
  kind: 'usage'
  offset: number
  usage: Partial<Usage>
  createdAt?: number
}

/**
 * The user went back inside the agent (Claude Code: Esc Esc, `/rewind`, an edited prompt, a
 * retry): a new prompt, or a new answer to the same prompt, hangs below the same message as an
 * earlier one, so the history forks inside one file. The line that went on from `abandonedUid`
 * was left; the records after this one continue from `atUid`. Emitted just before the record of
 * the new prompt (or answer).
 */
export interface AgentRewindRecord {
  kind: 'agent-rewind'
  offset: number
  /** The message both lines hang below (null: both start the session). */
  atUid: string | null
  /** The first message of the line that was left. */
  abandonedUid: string
}

/**
 * Something well-formed that the importer does not read: a record type, an event or a field it
 * does not know (a format change). Not imported, but counted per source, agent version and kind
 * (the import report, the Sources panel, `retrace doctor`), so a new format shows up as a count
 * instead of as history that silently goes missing. A malformed line is `skipped` instead.
 */
export interface UnreadRecord {
  kind: 'unread'
  offset: number
  /** What was not read, named as the format names it: `line type "foo"`, `event_msg "item_started"`. */
  what: string
  /** The version of the agent that wrote the line, when its file says (Claude Code `version`, Codex `cli_version`). */
  agentVersion: string | null
}

/** Something noted for the user without becoming a message (Codex `ghost_snapshot`). */
export interface NoteRecord {
  kind: 'note'
  offset: number
  text: string
}

export type SourceRecord =
  | MessageRecord
  | CompactionRecord
  | SessionMetaRecord
  | SubAgentLinkRecord
  | FileBackupsRecord
  | FileEditRecord
  | ShellCommandRecord
  | ChangeNotCapturedRecord
  | SkippedRecord
  | UnreadRecord
  | NoteRecord
  | UsageRecord
  | AgentRewindRecord

/**
 * A streaming parser of one history file. `feed` takes one complete line (without its newline)
 * and the byte offset where it starts; `state()` returns JSON-serialisable state from which a
 * new parser (`createParser(state)`) continues exactly where this one stopped.
 */
export interface LineParser {
  feed(line: string, offset: number): SourceRecord[]
  state(): unknown
}

/** The unread records among a parser's output. */
export function unreadIn(records: readonly SourceRecord[]): UnreadRecord[] {
  return records.filter((record): record is UnreadRecord => record.kind === 'unread')
}
