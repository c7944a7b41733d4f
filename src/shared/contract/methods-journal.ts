import { z } from 'zod'
import { SessionIdSchema, WorkspaceIdSchema } from './domain'
import {
  ConflictChoiceSchema,
  FileChangeSchema,
  FileDiffSchema,
  FileHistoryItemSchema,
  FileVersionSchema,
  PathIdSchema,
  PathRefSchema,
  RecoverySchema,
  RewindPlanSchema,
  RewindResultSchema,
  RewindSummarySchema
} from './journal'
import type { MethodSpec } from './method-spec'

const method = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O): MethodSpec<I, O> => ({ input, output })
const Turn = z.number().int().positive()
const Choices = z.array(z.object({ pathId: PathIdSchema, choice: ConflictChoiceSchema })).max(100_000).default([])
/** The paths, among those the preview says need confirmation (`needsConfirmation`), that the user confirmed; the others are refused. */
const Confirmed = z.array(PathIdSchema).max(100_000).default([])
/** The paths the user unticked in the preview: left exactly as they are and reported as skipped, whatever the plan would do to them. */
const Excluded = z.array(PathIdSchema).max(100_000).default([])
const Hash = z.string().regex(/^[0-9a-f]{64}$/)
const WatchId = z.string().uuid()
/** The other side's session, when a comparison spans two sessions of a workspace (default: the same session). */
const ToSession = SessionIdSchema.optional()

/** File journal and rewind methods (merged into the contract in methods.ts). */
export const journalMethods = {
  /** The files one turn created, changed, renamed or deleted, with +/- line counts. */
  'changes.ofTurn': method(
    z.object({ sessionId: SessionIdSchema, turn: Turn }).strict(),
    z.object({ items: z.array(FileChangeSchema) })
  ),

  /**
   * The shell commands of a turn that may have written files no tool reported (its checkpoint's
   * `uncapturedCommands`), oldest first; read-only ones (`ls`, `git status`…) are left out.
   * Found in the turn's stored tool calls, so a source naming its command otherwise may list
   * fewer than it counts.
   */
  'changes.shellCommands': method(
    z.object({ sessionId: SessionIdSchema, turn: Turn }).strict(),
    z.object({ items: z.array(z.object({ seq: z.number().int().nonnegative(), command: z.string() })) })
  ),

  /**
   * A file's diff between two checkpoints of a session: its state before `fromTurn` and before
   * `toTurn` (turnCount + 1 = after the last turn). With `toSessionId`, the later side is that
   * session's checkpoint, as in `changes.between`.
   */
  'files.diff': method(
    z.object({ sessionId: SessionIdSchema, pathId: PathIdSchema, fromTurn: Turn, toTurn: Turn, toSessionId: ToSession }).strict(),
    FileDiffSchema
  ),

  /**
   * The files that differ between two checkpoints of a session (before `fromTurn` and before
   * `toTurn`; turnCount + 1 = after the last turn), each with its two versions and net line
   * counts (null for binary or very large files, and with `tooManyChanges` past the line diff's
   * bounds). Each one's diff is `files.diff` with the same turns.
   *
   * With `toSessionId` (another session of the workspace: a branch and its parent, compared at
   * the same turn), the sides are `sessionId` before `fromTurn` and `toSessionId` before
   * `toTurn`, each the files as that session left them: its own last change, else what it
   * started from (a branch, its parent's files before the turn it branched at; a sub-agent,
   * after the turn that started it).
   */
  'changes.between': method(
    z.object({ sessionId: SessionIdSchema, fromTurn: Turn, toTurn: Turn, toSessionId: ToSession }).strict(),
    z.object({
      items: z.array(
        PathRefSchema.extend({
          before: FileVersionSchema.nullable(),
          after: FileVersionSchema.nullable(),
          added: z.number().int().nonnegative().nullable(),
          removed: z.number().int().nonnegative().nullable(),
          tooManyChanges: z.boolean()
        })
      )
    })
  ),

  /** Every recorded change to one path across every session of the workspace, oldest first. */
  'files.history': method(
    z.object({ workspaceId: WorkspaceIdSchema, pathId: PathIdSchema }).strict(),
    z.object({ items: z.array(FileHistoryItemSchema) })
  ),

  /** One recorded version of a file in this workspace (text, or base64 for binary), size-guarded. */
  'files.version': method(
    z.object({ workspaceId: WorkspaceIdSchema, hash: z.string().regex(/^[0-9a-f]{64}$/) }).strict(),
    z.object({ size: z.number().int(), binary: z.boolean(), truncated: z.boolean(), text: z.string().nullable(), base64: z.string().nullable() })
  ),

  /** Preview rewinding a session's files to before `turn`: what would be restored, created, deleted; conflicts. Writes nothing. */
  'rewind.plan': method(z.object({ sessionId: SessionIdSchema, turn: Turn }).strict(), RewindPlanSchema),

  /** Rewind a session's files to before `turn`, with a choice per conflict; refused if the disk changed since the preview token. */
  'rewind.apply': method(
    z.object({ sessionId: SessionIdSchema, turn: Turn, token: z.string().min(1), choices: Choices, defaultChoice: ConflictChoiceSchema.default('skip'), confirmed: Confirmed, excluded: Excluded }).strict(),
    RewindResultSchema
  ),

  /**
   * The line diff one path of a rewind preview opens (reads the disk and the store, writes
   * nothing): `rewind`, the disk now (before) against what the rewind writes (after); `yours`,
   * what the agent left (before) against the disk now (after): a conflict's change made since.
   * `of` names the preview: a rewind to before a turn, or the undo of a rewind.
   */
  'rewind.fileDiff': method(
    z
      .object({
        of: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('turn'), sessionId: SessionIdSchema, turn: Turn }).strict(),
          z.object({ kind: z.literal('undo'), rewindId: z.string().uuid() }).strict(),
          z.object({ kind: z.literal('version'), workspaceId: WorkspaceIdSchema, hash: Hash }).strict()
        ]),
        pathId: PathIdSchema,
        side: z.enum(['rewind', 'yours'])
      })
      .strict(),
    FileDiffSchema
  ),

  /**
   * Preview "Restore this version": rewinding one file to a version its history recorded (`hash`,
   * an entry's before or after state at that path), with conflicts where the disk is not what
   * the journal last saw there. Writes nothing.
   */
  'rewind.planVersion': method(z.object({ workspaceId: WorkspaceIdSchema, pathId: PathIdSchema, hash: Hash }).strict(), RewindPlanSchema),

  /** Restore one file to a recorded version: a one-file rewind, refused if the disk changed since the preview token; it can be undone. */
  'rewind.applyVersion': method(
    z.object({ workspaceId: WorkspaceIdSchema, pathId: PathIdSchema, hash: Hash, token: z.string().min(1), choices: Choices, defaultChoice: ConflictChoiceSchema.default('skip'), confirmed: Confirmed }).strict(),
    RewindResultSchema
  ),

  /**
   * Watch the files of an open rewind preview on disk: each change to one of them (debounced)
   * pushes `rewind.previewChanged` with this watch's id, so the window refreshes the preview
   * while it is open, focused or not. Called again with `watchId`, it renews the watch (for
   * these paths); a watch not renewed within a minute ends by itself. `watching` is false when
   * the files cannot be watched (too many folders, or the system refused): compare on focus then.
   */
  'rewind.watchPreview': method(
    z.object({ workspaceId: WorkspaceIdSchema, pathIds: z.array(PathIdSchema).min(1).max(100_000), watchId: WatchId.optional() }).strict(),
    z.object({ watchId: WatchId, watching: z.boolean() })
  ),

  /** Stop watching a preview's files (its dialog closed, or it was applied). */
  'rewind.unwatchPreview': method(z.object({ watchId: WatchId }).strict(), z.object({ closed: z.boolean() })),

  /** Preview undoing a rewind. */
  'rewind.planUndo': method(z.object({ rewindId: z.string().uuid() }).strict(), RewindPlanSchema),

  /** Undo a rewind: itself a rewind, so it can be undone too. */
  'rewind.undo': method(
    z.object({ rewindId: z.string().uuid(), token: z.string().min(1), choices: Choices, defaultChoice: ConflictChoiceSchema.default('skip'), confirmed: Confirmed, excluded: Excluded }).strict(),
    RewindResultSchema
  ),

  /**
   * Fork a session at a turn: a branch whose transcript is everything before that turn,
   * optionally with the workspace files rewound to that checkpoint in the same intent (both
   * happen or neither). The original session is never truncated.
   */
  'sessions.fork': method(
    z
      .object({
        sessionId: SessionIdSchema,
        turn: Turn,
        title: z.string().max(500).optional(),
        withFiles: z.boolean().default(false),
        /** With files: the rewind preview's token (omit to accept the current state). */
        token: z.string().min(1).optional(),
        choices: Choices,
        defaultChoice: ConflictChoiceSchema.default('skip'),
        confirmed: Confirmed,
        excluded: Excluded
      })
      .strict(),
    z.object({ sessionId: SessionIdSchema, rewind: RewindResultSchema.nullable() })
  ),

  /**
   * Preview merging a branch into its parent. A branch merged before offers only what was added
   * since its last merge: `branchMessages` counts those, `alreadyMerged` the ones merged already,
   * and `parentMessagesSinceFork` the parent's own since the fork or that merge (what `replace` takes out of context).
   */
  'sessions.planMerge': method(
    z.object({ branchId: SessionIdSchema }).strict(),
    z.object({
      parentId: SessionIdSchema,
      parentTitle: z.string(),
      branchMessages: z.number().int(),
      parentMessagesSinceFork: z.number().int(),
      alreadyMerged: z.number().int().nonnegative(),
      lastMergedAt: z.number().int().nullable()
    })
  ),

  /**
   * Merge a branch into its parent from the fork point (or, merged before, from its last merge):
   * append its messages, or replace the parent's since then (in context; nothing is deleted).
   * Refused (VALIDATION) when nothing was added since the last merge.
   */
  'sessions.merge': method(
    z.object({ branchId: SessionIdSchema, mode: z.enum(['append', 'replace']).default('append') }).strict(),
    z.object({ parentId: SessionIdSchema, firstSeq: z.number().int(), messageCount: z.number().int() })
  ),

  /**
   * Undo a branch's latest merge into its parent: delete exactly the marker and messages it
   * appended, put back into context what `replace` took out, and restore the parent's counts and
   * usage; the merge edge goes and the branch can be merged again. Refused (VALIDATION) when
   * the parent has messages after the merge, or the merge was recorded without undo data.
   */
  'sessions.unmerge': method(
    z.object({ branchId: SessionIdSchema }).strict(),
    z.object({ parentId: SessionIdSchema, removedMessages: z.number().int().nonnegative() })
  ),

  /**
   * Rewinds a crash interrupted and start-up recovery finished, newest first: each put back
   * every file it had changed, except the files changed since (left as found, and saved).
   */
  'rewind.recoveries': method(
    z.object({ workspaceId: WorkspaceIdSchema.optional(), unseenOnly: z.boolean().default(false) }).strict(),
    z.object({ items: z.array(RecoverySchema) })
  ),

  /** The user has read what recovery did with a rewind: the window stops showing it. */
  'rewind.dismissRecovery': method(z.object({ rewindId: z.string().uuid() }).strict(), z.object({ dismissed: z.boolean() })),

  /** The rewinds of a session, oldest first. */
  'rewind.list': method(z.object({ sessionId: SessionIdSchema }).strict(), z.object({ items: z.array(RewindSummarySchema) }))
} as const satisfies Record<string, MethodSpec>
