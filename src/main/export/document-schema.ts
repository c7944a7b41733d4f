import { z } from 'zod'
import {
  CheckpointSchema,
  NotCapturedChangeSchema,
  RewindCoverageSchema,
  FileChangeSchema,
  FileVersionSchema,
  MessageSchema,
  PathIdSchema,
  SessionIdSchema,
  SessionKindSchema,
  SessionRefSchema,
  SessionStatusSchema,
  SourceIdSchema,
  Timestamp,
  UsageSchema
} from '../../shared/contract'

// The export document: one plain, typed picture of a session, built once from the store and
// the journal. It is the only input of the three renderers (HTML, Markdown, JSON) and of
// redaction, so what the user reviews is exactly what every format carries.

const Count = z.number().int().nonnegative()
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/)

export const ExportPathSchema = z.object({ path: z.string(), pathId: PathIdSchema }).strict()

/** A message of the display transcript; its store row id is not kept (seq identifies it). */
export const ExportMessageSchema = MessageSchema.omit({ id: true, sessionId: true }).strict()
export type ExportMessage = z.infer<typeof ExportMessageSchema>

/** `too-many-changes`: past the line diff's bounds (R27); its patch is the two versions side by side. */
export const DiffKindSchema = z.enum(['text', 'binary', 'too-large', 'too-many-changes', 'symlink', 'unavailable'])

/** What a change did to the file's text: a unified diff, capped (`omittedLines` says how much is cut). */
export const ExportDiffSchema = z
  .object({
    kind: DiffKindSchema,
    added: Count.nullable(),
    removed: Count.nullable(),
    /** Unified diff hunks (no file headers); empty unless `kind` is text or symlink. */
    patch: z.string(),
    /** Patch lines left out because the diff is too long to show. */
    omittedLines: Count
  })
  .strict()
export type ExportDiff = z.infer<typeof ExportDiffSchema>

/** One journal entry of a turn: which file, what happened, and the diff. */
export const ExportFileChangeSchema = ExportPathSchema.extend({
  turn: z.number().int().positive(),
  op: FileChangeSchema.shape.op,
  from: ExportPathSchema.nullable(),
  before: FileVersionSchema.nullable(),
  after: FileVersionSchema.nullable(),
  observed: FileChangeSchema.shape.observed,
  diff: ExportDiffSchema
}).strict()
export type ExportFileChange = z.infer<typeof ExportFileChangeSchema>

/** A file version's bytes as the JSON export carries them (`--with-files`), or why they are not there. */
export const FileContentSchema = z.discriminatedUnion('encoding', [
  z.object({ encoding: z.literal('utf8'), text: z.string() }).strict(),
  z.object({ encoding: z.literal('base64'), base64: z.base64() }).strict(),
  z.object({ encoding: z.literal('omitted'), size: Count, reason: z.string() }).strict()
])
export type FileContent = z.infer<typeof FileContentSchema>

export const ExportSessionSchema = z
  .object({
    id: SessionIdSchema,
    title: z.string(),
    source: SourceIdSchema,
    kind: SessionKindSchema,
    status: SessionStatusSchema,
    model: z.string().nullable(),
    cwd: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    messageCount: Count,
    turnCount: Count,
    /** First display seq of the context transcript (what the model saw starts there). */
    contextStartSeq: Count,
    usage: UsageSchema
  })
  .strict()

/** The session's place in its workspace's session tree when it was exported. */
export const ExportTreeSchema = z
  .object({
    /** From the root session down to this session's parent (empty for a root). */
    ancestors: z.array(SessionRefSchema),
    /** Display seq in the parent where this session branched off. */
    forkSeq: Count.nullable(),
    depth: Count,
    predecessor: SessionRefSchema.nullable(),
    successors: z.array(SessionRefSchema),
    children: z.array(SessionRefSchema),
    /**
     * Where the user went back inside the agent: for a line left that way (`left`: this session),
     * the turn it left its parent at; for a session, each line left from it and its turn.
     * Absent in documents exported before Retrace read these rewinds.
     */
    agentRewinds: z
      .array(z.object({ turn: z.number().int().positive().nullable(), left: SessionRefSchema, from: SessionRefSchema }).strict())
      .optional()
  })
  .strict()

/** A checkpoint as exported; documents exported before migration 023 have no not-captured changes or coverage. */
const ExportCheckpointSchema = CheckpointSchema.extend({
  notCaptured: z.array(NotCapturedChangeSchema.strict()).optional(),
  coverage: RewindCoverageSchema.strict().optional()
}).strict()

export const ExportDocumentSchema = z
  .object({
    session: ExportSessionSchema,
    workspace: z.object({ name: z.string(), path: z.string() }).strict(),
    tree: ExportTreeSchema,
    /** The display transcript, every message, in seq order (`inContext` marks what the model still saw). */
    messages: z.array(ExportMessageSchema),
    checkpoints: z.array(ExportCheckpointSchema),
    /** Every file change of the session's turns, in turn then journal order. */
    fileChanges: z.array(ExportFileChangeSchema),
    /** With files: the content of every version a change names, by its recorded sha256. */
    fileContents: z.record(Sha256, FileContentSchema).nullable()
  })
  .strict()
export type ExportDocument = z.infer<typeof ExportDocumentSchema>
