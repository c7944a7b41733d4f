// The Codex parser's persisted state (what an incremental resume needs) and its schema.
import { z } from 'zod'
import type { SourceRecord } from '../records'
import { describeIssues } from './schemas'
import { TotalsSchema } from './token-totals'

export const PARSER_VERSION = 1

const RecordSchema = z.custom<SourceRecord>((value) => typeof value === 'object' && value !== null)

export const HeldSchema = z.object({
  kind: z.enum(['assistant', 'reasoning', 'compaction']),
  texts: z.array(z.string()),
  records: z.array(RecordSchema)
})
export type Held = z.infer<typeof HeldSchema>

export const StateSchema = z.object({
  v: z.literal(PARSER_VERSION),
  sessionId: z.string().nullable(),
  cwd: z.string().nullable(),
  model: z.string().nullable(),
  /** Tool calls without their output yet: call id → tool name. */
  calls: z.record(z.string(), z.string()),
  /** The file writes a `user_message` event for each prompt (one was seen): user items without one are context. */
  userEvents: z.boolean().default(false),
  /**
   * Records held back behind user items not yet known to be prompts or context (see `parser.ts`),
   * in file order; the first is such a user item. Null when nothing waits.
   */
  deferred: z.array(RecordSchema).nullable().default(null),
  /** The text of a prompt just read from a lone `user_message` event, which a user item may restate next. */
  promptEvent: z.string().nullable().default(null),
  held: HeldSchema.nullable(),
  lastTotals: TotalsSchema.nullable(),
  /** A compaction record was emitted and no conversation record since: more compaction lines are its copies. */
  compactionOpen: z.boolean(),
  /**
   * An old rollout's lines carry no time: its items take the header's, the only time it records
   * (null: a wrapped rollout, whose lines have their own).
   */
  legacyTime: z.number().nullable().default(null),
  /** The Codex version that wrote the rollout (`session_meta.cli_version`): unread records are counted by it. */
  cliVersion: z.string().nullable().default(null),
  /**
   * `session_meta.history_mode`: "paginated" rollouts record prompts, replies and reasoning as
   * `item_completed` events instead of `user_message` / `agent_message` / `agent_reasoning` ones.
   */
  historyMode: z.string().nullable().default(null),
  /**
   * The threads this one was forked from or spawned by (its first `session_meta`): a fork's rollout
   * copies their history, their `session_meta` line included.
   */
  copiedFrom: z.array(z.string()).default([]),
  /** A prompt was written: only the first one may title the session (ide-preamble.ts). */
  prompted: z.boolean().default(false)
})
export type CodexParserState = z.infer<typeof StateSchema>

export function freshState(): CodexParserState {
  return {
    v: PARSER_VERSION,
    sessionId: null,
    cwd: null,
    model: null,
    calls: {},
    userEvents: false,
    deferred: null,
    promptEvent: null,
    held: null,
    lastTotals: null,
    compactionOpen: false,
    legacyTime: null,
    cliVersion: null,
    historyMode: null,
    copiedFrom: [],
    prompted: false
  }
}

/** A fresh state when none is given, else a private copy of the given one; throws when it is not understood. */
export function restoreState(state: unknown): CodexParserState {
  if (state === undefined || state === null) return freshState()
  const parsed = StateSchema.safeParse(state)
  if (!parsed.success) throw new Error(`Codex parser state not understood: ${describeIssues(parsed.error)}`)
  return structuredClone(parsed.data)
}
