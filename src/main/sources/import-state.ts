import { z } from 'zod'

/**
 * What the importer remembers about one foreign file between increments (stored as JSON in
 * `import_files.import_state`). Parsed leniently: a state from an older Retrace that does not
 * fit starts fresh rather than failing the import.
 */
export const FileImportStateSchema = z.object({
  /** The session this file's lines go to, once created. */
  sessionUid: z.string().nullable().default(null),
  /** Inline sidechain lines (oldest Claude Code layout): agent id → its sub-agent session. */
  subAgents: z.record(z.string(), z.string()).default({}),
  /** Lines the user left by rewinding inside the agent: first message's uid → its branch session. */
  branches: z.record(z.string(), z.string()).default({}),
  /** Sub-agent links seen in this file: agent id → the tool call that started it. */
  links: z.record(z.string(), z.string()).default({}),
  /** The task description those calls gave (agent id → description): the sub-agents' titles. */
  linkTitles: z.record(z.string(), z.string()).default({}),
  title: z.string().nullable().default(null),
  titleRank: z.number().default(0),
  cwd: z.string().nullable().default(null),
  forkedFrom: z.object({ sessionId: z.string(), messageUid: z.string().nullable() }).nullable().default(null),
  /** A `/clear` was seen before the first prompt: this session continues the previous one. */
  startedByClear: z.boolean().default(false),
  sawPrompt: z.boolean().default(false),
  /**
   * The file backups of the current turn (Claude Code file-history): workspace-relative path →
   * blob hash, or null when the file did not exist. Paths are JSON-safe display strings.
   */
  backups: z.record(z.string(), z.string().nullable()).default({}),
  /** The user message the backups belong to, and the paths already edited in its turn. */
  backupsMessageUid: z.string().nullable().default(null),
  editedThisTurn: z.array(z.string()).default([]),
  /** The last content each path was journaled with in this file's sessions (hash, or null: absent). */
  lastContent: z.record(z.string(), z.string().nullable()).default({}),
  /** Shell commands per session and turn not yet counted on a checkpoint (the turn is still open). */
  uncaptured: z.record(z.string(), z.record(z.string(), z.number())).default({}),
  /**
   * Calls of a `writes` tool (the source's file-tools list) not yet accounted for, per session
   * and call id: settled at `finish` as not captured unless a change or an entry names them
   * first (call-accounting.ts). `result`: a result came back (it carried no change).
   */
  pendingWrites: z.record(z.string(), z.record(z.string(), z.object({ turn: z.number(), tool: z.string(), path: z.string().nullable(), result: z.boolean(), file: z.string(), offset: z.number() }))).default({}),
  /** Calls settled so, per session: a change that names one later takes its entry back. */
  settledWrites: z.record(z.string(), z.array(z.string())).default({}),
  /** Summaries read in this file whose session was not found yet, and whether the import said so (see summary-titles.ts). */
  summaries: z.array(z.object({ leafUid: z.string(), title: z.string(), offset: z.number(), reported: z.boolean().default(true) })).default([]),
  /** Where an unfinished last line starts that was reported already (it is reported once). */
  incompleteLineReported: z.number().nullable().default(null),
  /**
   * The file no longer held what was read of it, and is read again from its start into the
   * sessions it wrote, which keep every message (kept-messages.ts); null otherwise. `known`: the
   * last line read with a message held one imported already, so the lines after it without one
   * (usage, file backups) were applied already too.
   */
  reread: z.object({ known: z.boolean() }).nullable().default(null)
})
export type FileImportState = z.infer<typeof FileImportStateSchema>

export function readImportState(value: unknown): FileImportState {
  const parsed = FileImportStateSchema.safeParse(value ?? {})
  return parsed.success ? parsed.data : FileImportStateSchema.parse({})
}

/** Title sources, weakest first: a user's own title beats a generated one. */
export const TITLE_RANK = { 'first-prompt': 1, summary: 2, ai: 3, custom: 4 } as const
