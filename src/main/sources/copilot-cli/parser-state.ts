// The Copilot CLI parser's persisted state: what an incremental import needs to resume mid-file.
import { z } from 'zod'

export const PARSER_VERSION = 1

const PendingEditSchema = z.object({
  tool: z.string(),
  path: z.string(),
  /** `create`: the whole new file. */
  fileText: z.string().optional(),
  /** `edit` / `str_replace`: the replaced text and its replacement. */
  oldStr: z.string().optional(),
  newStr: z.string().optional()
})
export type PendingEdit = z.infer<typeof PendingEditSchema>

const TotalsSchema = z.object({ inputTokens: z.number(), outputTokens: z.number(), cacheReadTokens: z.number(), cacheWriteTokens: z.number() })
export type Totals = z.infer<typeof TotalsSchema>

export const StateSchema = z.object({
  v: z.literal(PARSER_VERSION),
  model: z.string().nullable(),
  cwd: z.string().nullable(),
  /** A title was given (the first prompt of the main agent). */
  titled: z.boolean(),
  /** Tool calls requested and not answered yet: call id → tool name. */
  calls: z.record(z.string(), z.string()),
  /** File-changing calls waiting for their result (journaled only when the tool succeeded). */
  edits: z.record(z.string(), PendingEditSchema),
  /** Calls of a writing tool that give no content to journal, waiting for their result (then reported). */
  callInputs: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  /** Sub-agents already linked to the tool call that started them. */
  linked: z.array(z.string()),
  /** `subagent.started`: the starting tool call → the sub-agent's name and description. */
  agentTitles: z.record(z.string(), z.string()),
  /** `task` calls whose sub-agent has not opened yet: call id → its prompt (the sub-agent's first, unmarked, user message). */
  taskPrompts: z.record(z.string(), z.string()),
  /** A sub-agent's `agentId` → the `task` call that runs it (sub-agents are keyed by that call). */
  callByAgent: z.record(z.string(), z.string()),
  /** An `assistant.reasoning` event came since the last assistant message (its `reasoningText` repeats it). */
  reasoningSeen: z.boolean(),
  /** Usage given to messages since the process started; `session.shutdown` reports the rest. */
  counted: TotalsSchema,
  /** The main agent's current prompt (`user.message` id: what its rewind snapshot is keyed by), and the paths edited since. */
  turnEventId: z.string().nullable().default(null),
  turnPaths: z.array(z.string()).default([]),
  /** `session.start`'s `copilotVersion`: records the parser does not read are counted by it. */
  copilotVersion: z.string().nullable().default(null)
})
export type ParserState = z.infer<typeof StateSchema>

export function zeroTotals(): Totals {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }
}

export function initialState(): ParserState {
  return { v: PARSER_VERSION, model: null, cwd: null, titled: false, calls: {}, edits: {}, callInputs: {}, linked: [], agentTitles: {}, taskPrompts: {}, callByAgent: {}, reasoningSeen: false, counted: zeroTotals(), turnEventId: null, turnPaths: [], copilotVersion: null }
}

/** The saved state, or a fresh one when it is absent or from another parser version (the file is then read again). */
export function restoreState(saved: unknown): ParserState {
  const parsed = StateSchema.safeParse(saved)
  return parsed.success ? parsed.data : initialState()
}
