import { z } from 'zod'

/**
 * Shapes of Codex rollout lines (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`). Every object is
 * loose: Codex adds fields from release to release, and only the fields read here are checked.
 */

export const RolloutLineSchema = z.looseObject({
  timestamp: z.string().optional(),
  type: z.string(),
  payload: z.unknown().optional()
})

const Typed = z.looseObject({ type: z.string() })
export const TypedPayloadSchema = Typed

export const SessionMetaSchema = z.looseObject({
  id: z.string().min(1),
  timestamp: z.string().optional(),
  cwd: z.string().optional(),
  model: z.string().nullish(),
  forked_from_id: z.string().nullish(),
  cli_version: z.string().nullish(),
  history_mode: z.string().nullish(),
  git: z.looseObject({ branch: z.string().nullish() }).nullish()
})

export const TurnContextSchema = z.looseObject({
  cwd: z.string().optional(),
  model: z.string().optional()
})

export const CompactedSchema = z.looseObject({ message: z.string() })

export const InterAgentCommunicationSchema = z.looseObject({
  id: z.string().nullish(),
  author: z.string(),
  recipient: z.string(),
  content: z.string().default(''),
  encrypted_content: z.string().nullish()
})

// ---- response_item payloads, by `type`

export const MessageItemSchema = z.looseObject({
  role: z.string(),
  content: z.unknown(),
  id: z.string().nullish()
})

export const ReasoningItemSchema = z.looseObject({
  id: z.string().nullish(),
  summary: z.array(z.looseObject({ text: z.string().optional() })).nullish(),
  content: z.array(z.looseObject({ text: z.string().optional() })).nullish(),
  encrypted_content: z.string().nullish()
})

export const FunctionCallSchema = z.looseObject({
  name: z.string().min(1),
  arguments: z.unknown(),
  call_id: z.string().min(1)
})

export const CustomToolCallSchema = z.looseObject({
  name: z.string().min(1),
  input: z.string(),
  call_id: z.string().min(1)
})

export const ToolOutputSchema = z.looseObject({
  call_id: z.string().min(1),
  output: z.unknown()
})

export const LocalShellCallSchema = z.looseObject({
  call_id: z.string().nullish(),
  id: z.string().nullish(),
  action: z.looseObject({
    type: z.string(),
    command: z.array(z.string()).optional(),
    working_directory: z.string().nullish()
  })
})

export const WebSearchCallSchema = z.looseObject({
  id: z.string().nullish(),
  action: z.unknown().optional()
})

export const GhostSnapshotSchema = z.looseObject({
  ghost_commit: z.looseObject({ id: z.string().min(1) })
})

// ---- event_msg payloads, by `type`

export const UserMessageEventSchema = z.looseObject({
  message: z.string(),
  kind: z.string().nullish(),
  images: z.array(z.string()).nullish(),
  local_images: z.array(z.unknown()).nullish()
})

export const AgentMessageEventSchema = z.looseObject({ message: z.string() })
export const AgentReasoningEventSchema = z.looseObject({ text: z.string() })

const TokenUsageSchema = z.looseObject({
  input_tokens: z.number().nonnegative(),
  cached_input_tokens: z.number().nonnegative().nullish(),
  output_tokens: z.number().nonnegative(),
  reasoning_output_tokens: z.number().nonnegative().nullish(),
  total_tokens: z.number().nonnegative().nullish()
})
export type TokenUsage = z.infer<typeof TokenUsageSchema>

export const TokenCountEventSchema = z.looseObject({
  info: z
    .looseObject({
      total_token_usage: TokenUsageSchema,
      last_token_usage: TokenUsageSchema.nullish()
    })
    .nullish()
})

export const ThreadNameUpdatedEventSchema = z.looseObject({ thread_name: z.string().nullish() })
export const CollabAgentSpawnEndEventSchema = z.looseObject({ call_id: z.string().min(1), new_thread_id: z.string().nullish() })

/** `item_completed` (codex-rs protocol `ItemCompletedEvent`): `item` is a `TurnItem`, tagged by `type`. */
export const ItemCompletedEventSchema = z.looseObject({ item: z.looseObject({ type: z.string() }) })
const TextPart = z.looseObject({ type: z.string(), text: z.string().optional() })
export const UserMessageTurnItemSchema = z.looseObject({
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional(), image_url: z.string().optional(), path: z.string().optional() }))
})
export const AgentMessageTurnItemSchema = z.looseObject({ content: z.array(TextPart) })
export const ReasoningTurnItemSchema = z.looseObject({ summary_text: z.array(z.string()) })
export const CollabAgentToolCallTurnItemSchema = z.looseObject({
  id: z.string().min(1),
  tool: z.string(),
  receiverThreadIds: z.array(z.string()).optional()
})

export const TurnAbortedEventSchema = z.looseObject({ reason: z.string().nullish() })
export const MessageEventSchema = z.looseObject({ message: z.string() })

/** `a.b: expected string, received undefined; …` from a failed parse. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ')
}
