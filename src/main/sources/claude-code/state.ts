import { z } from 'zod'

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
  sidechains: 500
} as const

/** An insertion-ordered map that forgets its oldest entries beyond `limit`. */
export class BoundedMap<V> {
  private readonly map = new Map<string, V>()
  constructor(
    private readonly limit: number,
    entries: Iterable<readonly [string, V]> = []
  ) {
    for (const [key, value] of entries) this.set(key, value)
  }
  get(key: string): V | undefined {
    return this.map.get(key)
  }
  has(key: string): boolean {
    return this.map.has(key)
  }
  set(key: string, value: V): void {
    this.map.delete(key)
    this.map.set(key, value)
    if (this.map.size > this.limit) {
      const oldest = this.map.keys().next()
      if (!oldest.done) this.map.delete(oldest.value)
    }
  }
  delete(key: string): void {
    this.map.delete(key)
  }
  entries(): [string, V][] {
    return [...this.map.entries()]
  }
}

/** Token counts already attributed to one `message.id`: input, output, cache read, cache write. */
export type Attributed = [number, number, number, number]

const PendingSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  /** Task/Agent calls: a digest of the prompt (see sidechains.ts). */
  prompt: z.string().optional()
})
export type PendingCall = z.infer<typeof PendingSchema>

const StateSchema = z.object({
  v: z.literal(1),
  usage: z.array(z.tuple([z.string(), z.tuple([z.number(), z.number(), z.number(), z.number()])])),
  pending: z.array(z.tuple([z.string(), PendingSchema])),
  aliases: z.array(z.tuple([z.string(), z.string().nullable()])),
  sidechains: z.array(z.tuple([z.string(), z.string()])).default([]),
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
    .nullable()
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
  meta: MetaState
  boundary: BoundaryState | null

  constructor(saved?: unknown) {
    const parsed = StateSchema.safeParse(saved)
    // Missing or unreadable state (a new file, or state from another version): start afresh.
    const state = parsed.success ? parsed.data : null
    this.usage = new BoundedMap(LIMITS.usage, state?.usage)
    this.pending = new BoundedMap(LIMITS.pending, state?.pending)
    this.aliases = new BoundedMap(LIMITS.aliases, state?.aliases)
    this.sidechains = new BoundedMap(LIMITS.sidechains, state?.sidechains)
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
  }

  toJSON(): SerializedState {
    return {
      v: 1,
      usage: this.usage.entries(),
      pending: this.pending.entries(),
      aliases: this.aliases.entries(),
      sidechains: this.sidechains.entries(),
      meta: { ...this.meta },
      boundary: this.boundary ? { ...this.boundary } : null
    }
  }
}
