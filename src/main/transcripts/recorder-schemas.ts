import { z } from 'zod'
import { MessageRoleSchema, SessionKindSchema, SourceIdSchema, SourceRefSchema, UsageSchema } from '../../shared/contract'
import { MAX_JSON_NESTING, valueNestsDeeper } from './json-nesting'

/**
 * A tool call's input: JSON of bounded depth. The depth is checked first, without recursion,
 * because `z.json()` (and every later reader) recurses and would overflow the stack.
 */
const ToolInputSchema = z
  .unknown()
  .refine((value) => !valueNestsDeeper(value), { message: `nested more than ${MAX_JSON_NESTING} levels deep`, abort: true })
  .pipe(z.json())

/** A message as a recorder client hands it over. */
export const AppendMessageSchema = z
  .object({
    role: MessageRoleSchema.exclude(['compaction_summary']),
    content: z.string().max(50_000_000).default(''),
    toolName: z.string().min(1).max(200).optional(),
    toolCallId: z.string().min(1).max(200).optional(),
    toolInput: ToolInputSchema.optional(),
    isError: z.boolean().optional(),
    model: z.string().max(200).optional(),
    usage: UsageSchema.partial().optional(),
    createdAt: z.number().int().nonnegative().optional(),
    /** Importers: where the message came from, and the source's own id for it. */
    sourceRef: SourceRefSchema.optional(),
    sourceUid: z.string().min(1).max(200).optional(),
    /** Images and documents kept beside the text (base64 data, or null when only referred to). */
    attachments: z
      .array(z.object({ mediaType: z.string().min(1).max(200), name: z.string().max(500).optional(), data: z.base64().nullable() }).strict())
      .max(100)
      .optional()
  })
  .strict()
  .refine((m) => m.role !== 'tool_call' || m.toolName !== undefined, { message: 'a tool_call needs a toolName' })
export type AppendMessage = z.input<typeof AppendMessageSchema>

export const StartSessionSchema = z
  .object({
    workspaceId: z.number().int().positive(),
    title: z.string().max(500).default(''),
    model: z.string().max(200).optional(),
    cwd: z.string().max(4096).optional(),
    source: SourceIdSchema.default('native'),
    /** The session's id in its source (e.g. an agent's own session id, for hooks). */
    sourceSessionId: z.string().min(1).max(200).optional(),
    kind: SessionKindSchema.extract(['main', 'child', 'ephemeral']).default('main'),
    /** Another session of the same workspace this one is a child of (kind `child`). */
    parentId: z.string().optional(),
    createdAt: z.number().int().nonnegative().optional()
  })
  .strict()
export type StartSession = z.input<typeof StartSessionSchema>

export const ForkSchema = z
  .object({
    /** The turn the branch starts from: the branch keeps every message before it. */
    atTurn: z.number().int().positive(),
    title: z.string().max(500).optional(),
    createdAt: z.number().int().nonnegative().optional(),
    /** Chosen by the caller when the id must be known in advance (a fork journaled with a file rewind). */
    uid: z.string().uuid().optional()
  })
  .strict()
export type ForkOptions = z.input<typeof ForkSchema>
