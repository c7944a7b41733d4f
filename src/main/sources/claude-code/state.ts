import { z } from 'zod'
import { BoundedMap } from './bounded-map'
import { RewindTracker } from './rewinds'
import type { SavedOutputReader } from './saved-output'

/** How many entries each remembered map keeps (oldest dropped first). */
export const LIMITS = {
  /**
   * `message.id`s whose usage was attributed. The lines of one response sit within a few dozen
   * lines of each other (tool results may interleave), so the last 500 ids are plenty.
   */
  usage: 500,
  /** Tool calls without a result yet. Interrupted calls never get one, hence the bound. */
  pending: 500,
  /**
   * Lines that produced no message (progress, bookkeeping) or several: uuid → the uid later
   * lines should name as parent. In the fixtures a parent is at most 136 lines back.
   */
  aliases: 500,
  /** Sidechain lines of Claude Code 1.0.x (no agentId): uuid → the agent they belong to. */
  sidechains: 500,
  /** Paths the agent read again since it last changed them (call-edits.ts). */
  reread: 500
} as const

/** Token counts already attributed to one `message.id`: input, output, cache read, cache write. */
export type Attributed = [number, number, number, number]

const PendingSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  /** Task/Agent calls: a digest of the prompt (see sidechains.ts). */
  prompt: z.string().optional(),
  /** Write / Edit / MultiEdit / NotebookEdit calls: what their input says of the file (call-edits.ts). */
  file: z
    .object({
      path: z.string(),
      content: z.string().optional(),
      edits: z.array(z.object({ oldString: z.string(), newString: z.string(), replaceAll: z.boolean() })).optional(),
      /** The input was too large to keep until the result. */
      dropped: z.literal(true).optional()
    })
    .optional()
})
export type PendingCall = z.infer<typeof PendingSchema>

const StateSchema = z.object({
  v: z.literal(1),
  usage: z.array(z.tuple([z.string(), z.tuple([z.number(), z.number(), z.number(), z.number()])])),
  pending: z.array(z.tuple([z.string(), PendingSchema])),
  aliases: z.array(z.tuple([z.string(), z.string().nullable()])),
  sidechains: z.array(z.tuple([z.string(), z.string()])).default([]),
  reread: z.array(z.tuple([z.string(), z.literal(true)])).default([]),
  meta: z.object({
    sessionId: z.string().nullable(),
    cwd: z.string().nullable(),
    gitBranch: z.string().nullable(),
    model: z.string().nullable(),
    forkedFrom: z.string().nullable(),
    createdAt: z.boolean(),
    /** `origin\ntitle` of the last title emitted. */
    title: z.string().nullable(),
    firstPrompt: z.boolean()
  }),
  /** A `compact_boundary` seen and not yet followed by its summary line. */
  boundary: z
    .object({ trigger: z.string().nullable(), preTokens: z.number().nullable() })
    .nullable(),
  /** Where lines start, to find rewinds inside the session (absent in state saved before they were). */
  rewinds: z
    .object({
      lines: z.array(z.tuple([z.string(), z.tuple([z.string(), z.enum(['prompt', 'answer']), z.string().nullable(), z.string().nullable()])])),
      prompts: z.array(z.string())
    })
    .optional(),
  /** The uuid of the last local-command caveat line: a slash command below it is a local one. */
  caveat: z.string().nullable().default(null)
})
type SerializedState = z.infer<typeof StateSchema>

export type MetaState = SerializedState['meta']
export type BoundaryState = NonNullable<SerializedState['boundary']>

/** Everything an incremental import needs to continue a file exactly where it stopped. */
export class ParserState {
  readonly usage: BoundedMap<Attributed>
  readonly pending: BoundedMap<PendingCall>
  readonly aliases: BoundedMap<string | null>
  readonly sidechains: BoundedMap<string>
  readonly reread: BoundedMap<true>
  meta: MetaState
  boundary: BoundaryState | null
  readonly rewinds: RewindTracker
  caveat: string | null
  /** Reads back a tool output Claude Code moved to `tool-results/` (not state: made from the file's path). */
  savedOutput: SavedOutputReader | null = null

  constructor(saved?: unknown) {
    const parsed = StateSchema.safeParse(saved)
    // Missing or unreadable state (a new file, or state from another version): start afresh.
    const state = parsed.success ? parsed.data : null
    this.usage = new BoundedMap(LIMITS.usage, state?.usage)
    this.pending = new BoundedMap(LIMITS.pending, state?.pending)
    this.aliases = new BoundedMap(LIMITS.aliases, state?.aliases)
    this.sidechains = new BoundedMap(LIMITS.sidechains, state?.sidechains)
    this.reread = new BoundedMap(LIMITS.reread, state?.reread)
    this.meta = state?.meta ?? {
      sessionId: null,
      cwd: null,
      gitBranch: null,
      model: null,
      forkedFrom: null,
      createdAt: false,
      title: null,
      firstPrompt: false
    }
    this.boundary = state?.boundary ?? null
    this.rewinds = new RewindTracker(state?.rewinds)
    this.caveat = state?.caveat ?? null
  }

  toJSON(): SerializedState {
    return {
      v: 1,
      usage: this.usage.entries(),
      pending: this.pending.entries(),
      aliases: this.aliases.entries(),
      sidechains: this.sidechains.entries(),
      reread: this.reread.entries(),
      meta: { ...this.meta },
      boundary: this.boundary ? { ...this.boundary } : null,
      rewinds: this.rewinds.toJSON(),
      caveat: this.caveat
    }
  }
}
