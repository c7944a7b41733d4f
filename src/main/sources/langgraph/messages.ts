import { isRecord, textOfContent } from '../plain-data'
import { isPythonObject } from './serde'

/** A LangChain message as Retrace reads it from a checkpoint's `messages` channel. */
export interface ChatMessage {
  role: 'user' | 'assistant' | 'tool' | 'system'
  /** LangChain's message id (stable across checkpoints: the same message in every later state). */
  id: string | null
  text: string
  /** Reasoning some providers return beside the answer (`additional_kwargs.reasoning_content`). */
  reasoning: string | null
  toolCalls: { id: string; name: string; args: unknown }[]
  /** For a tool message: the call it answers, the tool's name, and whether it failed. */
  toolCallId: string | null
  toolName: string | null
  isError: boolean
  model: string | null
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number } | null
}

const ROLE_BY_CLASS: Record<string, ChatMessage['role']> = {
  HumanMessage: 'user',
  HumanMessageChunk: 'user',
  AIMessage: 'assistant',
  AIMessageChunk: 'assistant',
  ToolMessage: 'tool',
  ToolMessageChunk: 'tool',
  SystemMessage: 'system',
  SystemMessageChunk: 'system'
}
const ROLE_BY_TYPE: Record<string, ChatMessage['role']> = { human: 'user', user: 'user', ai: 'assistant', assistant: 'assistant', tool: 'tool', system: 'system' }

/**
 * One entry of a `messages` channel: a serialized LangChain message object, or the plain
 * `{role, content}` dict graphs are often invoked with. Null for anything else (reported by the
 * caller as a skipped message, never guessed at).
 */
export function chatMessage(value: unknown): ChatMessage | null {
  let fields: Record<string, unknown>
  let role: ChatMessage['role'] | undefined
  if (isPythonObject(value)) {
    if (!isRecord(value.$args)) return null
    fields = value.$args
    const className = value.$class?.split('.').at(-1) ?? ''
    role = ROLE_BY_CLASS[className] ?? ROLE_BY_TYPE[String(fields.type)]
  } else if (isRecord(value)) {
    fields = value
    role = ROLE_BY_TYPE[String(fields.role ?? fields.type)]
  } else {
    return null
  }
  if (!role) return null
  const extra = isRecord(fields.additional_kwargs) ? fields.additional_kwargs : {}
  const metadata = isRecord(fields.response_metadata) ? fields.response_metadata : {}
  return {
    role,
    id: typeof fields.id === 'string' ? fields.id : null,
    text: textOfContent(fields.content),
    reasoning: typeof extra.reasoning_content === 'string' ? extra.reasoning_content : null,
    toolCalls: toolCalls(fields.tool_calls),
    toolCallId: typeof fields.tool_call_id === 'string' ? fields.tool_call_id : null,
    toolName: typeof fields.name === 'string' ? fields.name : null,
    isError: fields.status === 'error',
    model: typeof metadata.model_name === 'string' ? metadata.model_name : typeof metadata.model === 'string' ? metadata.model : null,
    usage: usageOf(fields.usage_metadata)
  }
}


function toolCalls(value: unknown): ChatMessage['toolCalls'] {
  if (!Array.isArray(value)) return []
  return value.flatMap((call) => (isRecord(call) && typeof call.name === 'string' ? [{ id: typeof call.id === 'string' ? call.id : '', name: call.name, args: call.args ?? null }] : []))
}

/**
 * LangChain's `usage_metadata`. Its `input_tokens` are the sum of every input token type, the
 * cached ones (`input_token_details.cache_read`, `cache_creation`) included; Retrace keeps input
 * without cache, as it does for every agent, so cached tokens are counted once.
 */
function usageOf(value: unknown): ChatMessage['usage'] {
  if (!isRecord(value)) return null
  const details = isRecord(value.input_token_details) ? value.input_token_details : {}
  const count = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.round(n) : 0)
  const cacheRead = count(details.cache_read)
  const cacheWrite = count(details.cache_creation)
  return { inputTokens: Math.max(0, count(value.input_tokens) - cacheRead - cacheWrite), outputTokens: count(value.output_tokens), cacheReadTokens: cacheRead, cacheWriteTokens: cacheWrite }
}
