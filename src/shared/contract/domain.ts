import { z } from 'zod'

// Transport shapes of the domain. Storage rows are mapped to these by the repositories;
// nothing here knows about SQL.

/** Milliseconds since the Unix epoch. */
export const Timestamp = z.number().int().nonnegative()

export const WorkspaceIdSchema = z.number().int().positive()
export const SessionIdSchema = z.string().min(1).max(200)
/** A history source: `native` for Retrace's own recorder, or an importer's name. */
export const SourceIdSchema = z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, 'a source name such as "native" or "claude-code"')

export const SessionKindSchema = z.enum(['main', 'child', 'branch', 'sub-agent', 'ephemeral'])
export type SessionKind = z.infer<typeof SessionKindSchema>

export const SessionStatusSchema = z.enum(['active', 'closed'])

export const TranscriptKindSchema = z.enum(['display', 'context'])
export type TranscriptKind = z.infer<typeof TranscriptKindSchema>

export const MessageRoleSchema = z.enum([
  'user',
  'assistant',
  'reasoning',
  'tool_call',
  'tool_result',
  'system',
  'compaction_summary'
])
export type MessageRole = z.infer<typeof MessageRoleSchema>

export const UsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cacheReadTokens: z.number().int().nonnegative(),
  cacheWriteTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative().nullable()
})
export type Usage = z.infer<typeof UsageSchema>

export const SourceCountSchema = z.object({ source: SourceIdSchema, count: z.number().int().nonnegative() })

export const WorkspaceSummarySchema = z.object({
  id: WorkspaceIdSchema,
  path: z.string(),
  name: z.string(),
  isDemo: z.boolean(),
  sessionCount: z.number().int().nonnegative(),
  lastActivityAt: Timestamp.nullable(),
  lastOpenedAt: Timestamp.nullable(),
  sources: z.array(SourceCountSchema),
  /** The folder is on this disk. A missing one (deleted, moved, another machine's) is browsable, never rewound into. */
  folderExists: z.boolean(),
  /**
   * Why this workspace is read-only, or null: a home or system folder (agents in containers record
   * `/root`) holds the sessions recorded there, browsable, searchable, exportable and forkable
   * without files, but a rewind never writes there and no file change is kept.
   */
  readOnly: z.string().nullable()
})
export type WorkspaceSummary = z.infer<typeof WorkspaceSummarySchema>

export const SessionMergedSchema = z.object({
  count: z.number().int().positive(),
  lastAt: Timestamp,
  newMessages: z.number().int().nonnegative()
})
export type SessionMerged = z.infer<typeof SessionMergedSchema>

/** A file change the agent's history shows that Retrace could not journal (docs/reliability.md R42). */
export const NotCapturedChangeSchema = z.object({
  turn: z.number().int().positive(),
  /** The tool as the agent names it (`write_to_file`, `NotebookEdit`), or `unknown tool "x"`. */
  tool: z.string(),
  /** Workspace-relative when inside the workspace, else as the agent wrote it; null when unknown. */
  path: z.string().nullable(),
  /** Why: "the agent keeps no file content", "the patch does not apply to the known content"… */
  reason: z.string()
})
export type NotCapturedChange = z.infer<typeof NotCapturedChangeSchema>

/** How much of a session or turn a rewind can put back. */
export const RewindCoverageSchema = z.object({
  recorded: z.number().int().nonnegative(), // journaled changes (rewindable)
  notCaptured: z.number().int().nonnegative(), // NotCapturedChange entries
  uncapturedCommands: z.number().int().nonnegative(), // shell commands whose changes no scan saw
  /** The agent keeps no file content at all (by its format): nothing it changed can be rewound. */
  agentKeepsNoContent: z.boolean()
})
export type RewindCoverage = z.infer<typeof RewindCoverageSchema>

/** Where a shown title comes from (see SessionSummary.titleOrigin). */
export const TitleOriginSchema = z.enum(['own', 'derived', 'none'])

export const SessionSummarySchema = z.object({
  id: SessionIdSchema,
  workspaceId: WorkspaceIdSchema,
  source: SourceIdSchema,
  /** The session's own title, or (see `titleOrigin`) a label made from what it did; '' when neither. */
  title: z.string(),
  /**
   * Where `title` comes from: the session's own (its agent's, or a rename), `derived` from what it
   * did when it has none (its first prompt, else its first tool call and the file it took), or
   * `none` (nothing to go by: no message). Lists style a derived title apart.
   */
  titleOrigin: TitleOriginSchema,
  kind: SessionKindSchema,
  parentId: SessionIdSchema.nullable(),
  /** The parent's title, so a list can name a parent it has not loaded. */
  parentTitle: z.string().nullable(),
  /** The parent's turn this session branched from (forks and sub-agents), when the parent has checkpoints there. */
  forkTurn: z.number().int().nonnegative().nullable(),
  /**
   * The agent's own id of the session this one says it belongs to (a sub-agent's parent), when
   * that session is not in Retrace: its file is gone or was never written. Null otherwise.
   */
  missingParent: z.string().nullable(),
  /**
   * Work the agent did at start-up rather than for the user (a Claude Code warm-up agent, or a
   * session without messages whose only sub-agents are warm-ups). Lists leave these out unless asked.
   */
  warmup: z.boolean(),
  /** The session this one continues after a reset (`/clear`, `/new`). */
  predecessorId: SessionIdSchema.nullable(),
  /** The predecessor's title ("continues …" in the list). */
  predecessorTitle: z.string().nullable(),
  depth: z.number().int().nonnegative(),
  status: SessionStatusSchema,
  model: z.string().nullable(),
  /** A sub-agent's kind as its agent names it (Claude Code's `agentType`: `Explore`, `general-purpose`, `workflow-subagent`…), when known. */
  agentType: z.string().optional(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  messageCount: z.number().int().nonnegative(),
  turnCount: z.number().int().nonnegative(),
  /**
   * A branch the agent's own history holds: a line the user left by going back inside the agent
   * (Claude Code's rewind, an edited prompt, a retry), not a fork made in Retrace.
   */
  rewoundInAgent: z.boolean(),
  /**
   * A branch merged back into a session: how many times, the last one's time, and how many of
   * its messages came after the last merge (only those a further merge would take). Null if never merged.
   */
  merged: SessionMergedSchema.nullable(),
  /**
   * When Retrace found that the agent deleted this session's history file (Claude Code's
   * clean-up after `cleanupPeriodDays`, a file removed by hand). What was imported stays; null
   * while the file is there.
   */
  sourceDeletedAt: Timestamp.nullable(),
  /**
   * The date of the price table (LiteLLM's published prices, shipped with Retrace) that priced
   * some of `usage.costUsd`; null when the whole cost is what the source recorded, or unknown.
   */
  costPricedOn: z.string().nullable(),
  /**
   * In a workspace's lists: the subfolder (relative to the workspace) the session ran in, when it
   * is stored under that subfolder's own workspace and shown here as part of the folder's view.
   * Absent for the workspace's own sessions.
   */
  folder: z.string().optional(),
  usage: UsageSchema,
  /** How much of the session a rewind can put back: its turns' coverage summed. */
  coverage: RewindCoverageSchema
})
export type SessionSummary = z.infer<typeof SessionSummarySchema>

export const SessionRefSchema = z.object({ id: SessionIdSchema, title: z.string(), kind: SessionKindSchema })
export type SessionRef = z.infer<typeof SessionRefSchema>

/** A session started from this one (a branch, a sub-agent…), with where it left it. */
export const ChildRefSchema = SessionRefSchema.extend({
  /** Display seq in this session where it branched off: a branch's first own message, a sub-agent's starting tool call. */
  forkSeq: z.number().int().nonnegative().nullable()
})
export type ChildRef = z.infer<typeof ChildRefSchema>

export const CheckpointSchema = z.object({
  turn: z.number().int().positive(),
  /** How many display messages precede the turn: the transcript prefix a fork or rewind keeps. */
  messagesBefore: z.number().int().nonnegative(),
  invalidated: z.boolean(),
  /** Shell commands the turn ran whose file changes no workspace scan saw (imported sessions). */
  uncapturedCommands: z.number().int().nonnegative(),
  /** The turn's file changes the agent's history shows but Retrace could not journal, with why. */
  notCaptured: z.array(NotCapturedChangeSchema),
  /** How much of the turn a rewind can put back. */
  coverage: RewindCoverageSchema,
  createdAt: Timestamp
})
export type Checkpoint = z.infer<typeof CheckpointSchema>

export const SessionDetailSchema = SessionSummarySchema.extend({
  cwd: z.string().nullable(),
  /** The agent's own id for this session (its rollout's or transcript's id, or the id its hooks passed); the CLI accepts it in place of `id`. */
  sourceSessionId: z.string().nullable(),
  /** Display seq in the parent at which this session branched off (forks and sub-agents). */
  forkSeq: z.number().int().nonnegative().nullable(),
  /** First display seq of the context transcript (moves forward at each compaction). */
  contextStartSeq: z.number().int().nonnegative(),
  parent: SessionRefSchema.nullable(),
  predecessor: SessionRefSchema.nullable(),
  successors: z.array(SessionRefSchema),
  children: z.array(ChildRefSchema),
  checkpoints: z.array(CheckpointSchema),
  /**
   * The last turn with a journaled file change (null: none). A rewind to before a later turn
   * has nothing to put back, so the window disables its Rewind button.
   */
  lastChangedTurn: z.number().int().positive().nullable()
})
export type SessionDetail = z.infer<typeof SessionDetailSchema>

/** Where a message came from in its source: a file and byte offset, or a database row. */
export const SourceRefSchema = z.union([
  z.object({
    file: z.string(),
    offset: z.number().int().nonnegative(),
    /**
     * The agent's file no longer holds this message (it was cut short, or replaced by a copy
     * without it): Retrace keeps it, marked so (docs/reliability.md R31).
     */
    notInFile: z.literal(true).optional()
  }),
  z.object({ table: z.string(), rowId: z.string() })
])
export type SourceRef = z.infer<typeof SourceRefSchema>

export const MessageSchema = z.object({
  id: z.number().int().positive(),
  sessionId: SessionIdSchema,
  /** Position in the display transcript, from 0. */
  seq: z.number().int().nonnegative(),
  /** Turn number: 0 before the first user prompt, then 1, 2, … */
  turn: z.number().int().nonnegative(),
  role: MessageRoleSchema,
  content: z.string(),
  toolName: z.string().nullable(),
  toolCallId: z.string().nullable(),
  toolInput: z.json().nullable(),
  isError: z.boolean(),
  model: z.string().nullable(),
  usage: UsageSchema.nullable(),
  createdAt: Timestamp.nullable(),
  /** False when a compaction removed it from what the model sees. */
  inContext: z.boolean(),
  sourceRef: SourceRefSchema.nullable()
})
export type Message = z.infer<typeof MessageSchema>

export const SnippetPartSchema = z.object({ text: z.string(), match: z.boolean() })
export type SnippetPart = z.infer<typeof SnippetPartSchema>

export const SearchHitSchema = z.object({
  messageId: z.number().int().positive(),
  sessionId: SessionIdSchema,
  sessionTitle: z.string(),
  workspaceId: WorkspaceIdSchema,
  workspaceName: z.string(),
  seq: z.number().int().nonnegative(),
  turn: z.number().int().nonnegative(),
  role: MessageRoleSchema,
  createdAt: Timestamp.nullable(),
  snippet: z.array(SnippetPartSchema)
})
export type SearchHit = z.infer<typeof SearchHitSchema>

export const FolderEntrySchema = z.object({ name: z.string(), path: z.string() })
