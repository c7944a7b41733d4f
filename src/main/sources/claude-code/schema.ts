import { z } from 'zod'

/**
 * Shapes of the Claude Code history lines the parser reads (docs/formats.md §2.1). Every object is
 * loose: Claude Code adds fields in almost every release, and an unknown field must never make
 * a line unreadable. Fields the parser only uses as hints (`cwd`, `gitBranch`, …) fall back to
 * undefined when their type is unexpected instead of failing the whole line.
 */

const hint = <T extends z.ZodType>(schema: T) => schema.nullish().catch(undefined)

const count = hint(z.number().finite().nonnegative())

/** Fields every conversation line may carry. */
export const LineBaseSchema = z.looseObject({
  type: z.string(),
  uuid: hint(z.string()),
  parentUuid: hint(z.string()),
  logicalParentUuid: hint(z.string()),
  isSidechain: hint(z.boolean()),
  agentId: hint(z.string()),
  sessionId: hint(z.string()),
  session_id: hint(z.string()),
  timestamp: hint(z.string()),
  cwd: hint(z.string()),
  gitBranch: hint(z.string()),
  version: hint(z.string()),
  forkedFrom: hint(z.looseObject({ sessionId: z.string(), messageUuid: hint(z.string()) }))
})
export type LineBase = z.infer<typeof LineBaseSchema>

/** A content block before its type is known; each kind is validated by its own schema below. */
export const BlockSchema = z.looseObject({ type: z.string() })
export type Block = z.infer<typeof BlockSchema>

export const TextBlockSchema = z.looseObject({ type: z.literal('text'), text: z.string() })

const MediaSourceSchema = z.looseObject({
  type: hint(z.string()),
  media_type: hint(z.string()),
  data: hint(z.string()),
  url: hint(z.string())
})
export const MediaBlockSchema = z.looseObject({
  type: z.enum(['image', 'document']),
  source: MediaSourceSchema,
  title: hint(z.string())
})
export type MediaBlock = z.infer<typeof MediaBlockSchema>

export const ToolResultBlockSchema = z.looseObject({
  type: z.string(),
  tool_use_id: z.string(),
  /** A string or blocks; server-tool results (`web_search_tool_result`) may hold a single error object. */
  content: z.unknown().optional(),
  is_error: hint(z.boolean())
})
export type ToolResultBlock = z.infer<typeof ToolResultBlockSchema>

export const ToolUseBlockSchema = z.looseObject({
  type: z.enum(['tool_use', 'server_tool_use']),
  id: z.string(),
  name: z.string(),
  input: z.unknown().optional()
})

export const ThinkingBlockSchema = z.looseObject({ type: z.literal('thinking'), thinking: z.string() })

const ContentSchema = z.union([z.string(), z.array(BlockSchema)])

export const UserLineSchema = z.looseObject({
  message: z.looseObject({ content: ContentSchema }),
  isMeta: hint(z.boolean()),
  isCompactSummary: hint(z.boolean()),
  toolUseResult: z.unknown().optional()
})

export const UsageSchema = z.looseObject({
  input_tokens: count,
  output_tokens: count,
  cache_read_input_tokens: count,
  cache_creation_input_tokens: count
})
export type ApiUsage = z.infer<typeof UsageSchema>

export const AssistantLineSchema = z.looseObject({
  message: z.looseObject({
    id: hint(z.string()),
    model: hint(z.string()),
    content: ContentSchema,
    usage: hint(UsageSchema)
  }),
  isApiErrorMessage: hint(z.boolean())
})

export const SystemLineSchema = z.looseObject({
  subtype: hint(z.string()),
  content: z.unknown().optional(),
  level: hint(z.string()),
  compactMetadata: hint(z.looseObject({ trigger: hint(z.string()), preTokens: count })),
  hookErrors: hint(z.array(z.unknown())),
  preventedContinuation: hint(z.boolean()),
  stopReason: hint(z.string()),
  error: z.unknown().optional(),
  retryAttempt: count,
  maxRetries: count,
  retryInMs: count
})
export type SystemLine = z.infer<typeof SystemLineSchema>

export const SummaryLineSchema = z.looseObject({ summary: z.string() })
export const CustomTitleLineSchema = z.looseObject({ customTitle: z.string() })
export const AiTitleLineSchema = z.looseObject({ aiTitle: z.string() })

export const BackupSchema = z.looseObject({
  backupFileName: z.string().nullable(),
  version: z.number().int().nonnegative(),
  backupTime: hint(z.string())
})

export const SnapshotLineSchema = z.looseObject({
  messageId: hint(z.string()),
  isSnapshotUpdate: hint(z.boolean()),
  snapshot: z.looseObject({
    messageId: hint(z.string()),
    trackedFileBackups: z.record(z.string(), BackupSchema)
  })
})

export const DeltaLineSchema = z.looseObject({
  messageId: hint(z.string()),
  snapshotMessageId: hint(z.string()),
  trackingPath: z.string(),
  backup: BackupSchema
})

/** Edit / Write / MultiEdit `toolUseResult` (docs/formats.md §2.1 "Tool results that carry file content"). */
export const HunkSchema = z.looseObject({
  oldStart: z.number().int(),
  oldLines: z.number().int().nonnegative(),
  newStart: z.number().int(),
  newLines: z.number().int().nonnegative(),
  lines: z.array(z.string())
})
export type Hunk = z.infer<typeof HunkSchema>

export const FileEditResultSchema = z.looseObject({
  filePath: z.string(),
  type: hint(z.string()),
  content: hint(z.string()),
  originalFile: z.string().nullish(),
  /** MultiEdit's name for `originalFile`. */
  originalFileContents: z.string().nullish(),
  structuredPatch: hint(z.array(HunkSchema)),
  oldString: hint(z.string()),
  newString: hint(z.string()),
  replaceAll: hint(z.boolean()),
  edits: hint(
    z.array(
      z.looseObject({
        old_string: z.string(),
        new_string: z.string(),
        replace_all: hint(z.boolean())
      })
    )
  )
})
export type FileEditResult = z.infer<typeof FileEditResultSchema>

export const AgentResultSchema = z.looseObject({
  agentId: z.string().min(1),
  description: hint(z.string()),
  prompt: hint(z.string())
})

/** The first problem zod found, as one short line (`message.content: Invalid input`). */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0]
  if (!issue) return 'invalid shape'
  const path = issue.path.map(String).join('.')
  return path ? `${path}: ${issue.message}` : issue.message
}
