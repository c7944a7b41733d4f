import { z } from 'zod'
import { SessionIdSchema, SessionKindSchema, Timestamp } from './domain'

/** A workspace-relative path: display text, and the raw bytes (base64) that identify it exactly. */
export const PathRefSchema = z.object({ path: z.string(), pathId: z.string() })
export type PathRef = z.infer<typeof PathRefSchema>
export const PathIdSchema = z.string().min(1).max(8192).regex(/^[A-Za-z0-9+/]+={0,2}$/, 'a base64 path id')

export const FileVersionSchema = z.object({
  kind: z.enum(['file', 'symlink']),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().nonnegative(),
  mode: z.number().int().nonnegative()
})

export const FileChangeSchema = PathRefSchema.extend({
  id: z.number().int().positive(),
  op: z.enum(['create', 'modify', 'delete', 'rename', 'mode']),
  from: PathRefSchema.nullable(),
  before: FileVersionSchema.nullable(),
  after: FileVersionSchema.nullable(),
  /** How Retrace knows: a tool call, a workspace scan, an imported backup, a rebuilt patch, a rewind. */
  observed: z.enum(['tool', 'scan', 'backup', 'patch', 'rewind']),
  /** Line counts for text files; null for binary or very large ones, and past the line diff's bounds. */
  added: z.number().int().nonnegative().nullable(),
  removed: z.number().int().nonnegative().nullable(),
  /** Past the line diff's bounds (R27): too many changes to diff by line, so no counts. */
  tooManyChanges: z.boolean()
})
export type FileChange = z.infer<typeof FileChangeSchema>

export const FileDiffSchema = z.object({
  binary: z.boolean(),
  tooLarge: z.boolean(),
  /**
   * Too many changes to diff by line (R27: past a bound on edits and time): `added` and
   * `removed` are 0, not known, and `patch` is one hunk replacing every old line by every new
   * one, so a split view shows the two versions side by side.
   */
  tooManyChanges: z.boolean(),
  before: z.object({ hash: z.string(), size: z.number() }).nullable(),
  after: z.object({ hash: z.string(), size: z.number() }).nullable(),
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  patch: z.string()
})

export const FileHistoryItemSchema = z.object({
  sessionId: SessionIdSchema.nullable(),
  sessionTitle: z.string().nullable(),
  sessionKind: SessionKindSchema.nullable(),
  turn: z.number().int().nullable(),
  op: FileChangeSchema.shape.op,
  before: FileVersionSchema.nullable(),
  after: FileVersionSchema.nullable(),
  observed: FileChangeSchema.shape.observed,
  createdAt: Timestamp
})

export const ConflictChoiceSchema = z.enum(['skip', 'overwrite', 'keep-both'])

export const RewindPlanItemSchema = PathRefSchema.extend({
  action: z.enum(['restore', 'create', 'delete', 'mode', 'none']),
  /** The disk no longer matches what the agent left: choose skip, overwrite or keep both. */
  conflict: z.string().nullable(),
  /** Cannot be done safely (hostile path, missing snapshot, link, case collision). */
  refused: z.string().nullable(),
  currentSize: z.number().int().nullable(),
  targetSize: z.number().int().nullable(),
  /** What is at the path now (null: nothing), and what the rewind puts there (null: nothing). */
  currentKind: z.enum(['file', 'symlink', 'directory', 'other']).nullable(),
  targetKind: z.enum(['file', 'symlink']).nullable(),
  /** Permission bits now and after the rewind (a file's; null where there is none). */
  currentMode: z.number().int().nonnegative().nullable(),
  targetMode: z.number().int().nonnegative().nullable(),
  /** Where a restored link points. */
  linkTarget: z.string().nullable(),
  /**
   * A file that runs code or grants access, from a history this computer did not record: the
   * apply writes it only if the request names it in `confirmed`. Says what it does and names it.
   */
  needsConfirmation: z.string().nullable()
})

export const RewindPlanSchema = z.object({
  /** Pass back to apply: if the disk changed since this preview, nothing is written. */
  token: z.string(),
  /** The workspace folder the rewind writes in. */
  root: z.string(),
  items: z.array(RewindPlanItemSchema)
})

export const RewindResultSchema = z.object({
  rewindId: z.string(),
  changed: z.array(PathRefSchema.extend({ action: z.enum(['keep', 'delete', 'write', 'mode']), keptAs: z.string().nullable() })),
  skipped: z.array(PathRefSchema),
  refused: z.array(PathRefSchema.extend({ reason: z.string() })),
  /**
   * Files somebody wrote to while the rewind had them set aside (an agent still writing): kept
   * beside their paths as `keptAs`, with what they held then saved in the store (`hash`).
   */
  keptDuring: z.array(PathRefSchema.extend({ keptAs: z.string(), hash: z.string().nullable() })).optional()
})

export const RewindSummarySchema = z.object({
  id: z.string(),
  targetTurn: z.number().int().nullable(),
  undoOf: z.string().nullable(),
  status: z.enum(['applying', 'applied', 'rolled_back', 'failed', 'undone']),
  createdAt: Timestamp,
  finishedAt: Timestamp.nullable(),
  changed: z.number().int().nonnegative()
})

/**
 * A path start-up recovery left as it found it (somebody changed it after the rewind was
 * interrupted): what it found, saved to the store under `found.hash` when `saved`, and the
 * version from before the rewind (null: nothing was there).
 */
export const RecoveryConflictSchema = PathRefSchema.extend({
  found: z.union([FileVersionSchema, z.object({ kind: z.enum(['directory', 'other']) })]).nullable(),
  saved: z.boolean(),
  before: FileVersionSchema.nullable()
})

/** A rewind a crash (or a killed process) interrupted, and what start-up recovery did with it. */
export const RecoverySchema = z.object({
  rewindId: z.string(),
  workspaceId: z.number().int().positive(),
  workspacePath: z.string(),
  sessionId: SessionIdSchema.nullable(),
  sessionTitle: z.string().nullable(),
  targetTurn: z.number().int().nullable(),
  undoOf: z.string().nullable(),
  recoveredAt: Timestamp,
  /** The user has dismissed it in the window. */
  seen: z.boolean(),
  conflicts: z.array(RecoveryConflictSchema)
})
export type Recovery = z.infer<typeof RecoverySchema>
