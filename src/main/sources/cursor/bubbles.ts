import { isRecord, toolArguments } from '../plain-data'

/** One message of a Cursor conversation (a "bubble"), as Retrace reads it. */
export interface CursorBubble {
  id: string
  /** `type` 1: the user's prompt; 2: the assistant (its text, its thinking, or one tool call). */
  role: 'user' | 'assistant'
  text: string
  thinking: string | null
  tool: CursorToolCall | null
  model: string | null
  usage: { inputTokens: number; outputTokens: number } | null
  createdAt: number | undefined
}

/** `toolFormerData`: the tool the agent called from this bubble, and what it returned. */
export interface CursorToolCall {
  callId: string
  name: string
  args: unknown
  /** The tool's result (Cursor keeps it as JSON text); null while it ran, when it was cancelled, or pruned. */
  result: string | null
  /**
   * Cursor dropped the result from the bubble's JSON after the call finished: it keeps it, if at
   * all, only in `toolCallBinary` (an `agent.v1.ToolCall` protobuf whose schema is not public).
   * A finished call (`status: "completed"`) or one with that binary, and no result beside it.
   */
  resultPruned: boolean
  isError: boolean
  /** A file edit whose contents Cursor kept (`edit_file_v2`): the file, and the keys of its before and after. */
  edit: { path: string; beforeKey: string | null; afterKey: string } | null
}

/** Where Cursor's file tools name the file they write. */
const PATH_FIELDS = ['relativeWorkspacePath', 'targetFile', 'target_file', 'filePath', 'file_path', 'path']

/**
 * A bubble value (`bubbleId:<composer>:<bubble>` in the global store, or an entry of a composer's
 * inline `conversation`): null when it is not one (the caller reports it). The header's type
 * stands in for a bubble that lost its own.
 */
export function bubbleOf(value: unknown, fallbackId: string, headerType?: unknown): CursorBubble | null {
  if (!isRecord(value)) return null
  const type = value.type ?? headerType
  if (type !== 1 && type !== 2) return null
  const thinking = isRecord(value.thinking) && typeof value.thinking.text === 'string' && value.thinking.text.trim() ? value.thinking.text : null
  return {
    id: typeof value.bubbleId === 'string' && value.bubbleId ? value.bubbleId : fallbackId,
    role: type === 1 ? 'user' : 'assistant',
    text: typeof value.text === 'string' ? value.text : '',
    thinking,
    tool: toolOf(value.toolFormerData, fallbackId),
    model: isRecord(value.modelInfo) && typeof value.modelInfo.modelName === 'string' && value.modelInfo.modelName ? value.modelInfo.modelName : null,
    usage: usageOf(value.tokenCount),
    createdAt: timeOf(value.createdAt)
  }
}

/**
 * A tool call. A `toolFormerData` without a name (Cursor writes `{additionalData: {status: "error"}}`
 * for a call that never started) is no call.
 */
function toolOf(value: unknown, bubbleId: string): CursorToolCall | null {
  if (!isRecord(value) || typeof value.name !== 'string' || !value.name) return null
  const extra = isRecord(value.additionalData) ? value.additionalData : {}
  const rawArgs = value.rawArgs ?? value.params
  const result = typeof value.result === 'string' ? value.result : value.result === undefined || value.result === null ? null : JSON.stringify(value.result)
  const isError = value.status === 'error' || extra.status === 'error'
  const binary = typeof value.toolCallBinary === 'string' && value.toolCallBinary.length > 0
  return {
    callId: typeof value.toolCallId === 'string' && value.toolCallId ? value.toolCallId : bubbleId,
    name: value.name,
    args: rawArgs === undefined ? null : toolArguments(rawArgs),
    result,
    resultPruned: result === null && !isError && (binary || value.status === 'completed'),
    isError,
    edit: editOf(value, result)
  }
}

function editOf(tool: Record<string, unknown>, result: string | null): CursorToolCall['edit'] {
  const parsed = result === null ? null : parseObject(result)
  const afterKey = parsed?.afterContentId
  if (typeof afterKey !== 'string' || !afterKey.startsWith('composer.content.')) return null
  const params = parseObject(tool.params) ?? parseObject(tool.rawArgs)
  const path = PATH_FIELDS.map((field) => params?.[field]).find((value): value is string => typeof value === 'string' && value.length > 0)
  if (!path) return null
  const beforeKey = typeof parsed?.beforeContentId === 'string' && parsed.beforeContentId.startsWith('composer.content.') ? parsed.beforeContentId : null
  return { path, beforeKey, afterKey }
}

function parseObject(value: unknown): Record<string, unknown> | null {
  if (isRecord(value)) return value
  if (typeof value !== 'string') return null
  try {
    const parsed = JSON.parse(value) as unknown
    return isRecord(parsed) ? parsed : null
  } catch {
    return null
  }
}

function usageOf(value: unknown): CursorBubble['usage'] {
  if (!isRecord(value)) return null
  const count = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.round(n) : 0)
  const usage = { inputTokens: count(value.inputTokens), outputTokens: count(value.outputTokens) }
  // Cursor writes zeros on every bubble it did not measure.
  return usage.inputTokens > 0 || usage.outputTokens > 0 ? usage : null
}

/** Bubbles carry an ISO time (or none); composers, milliseconds. */
export function timeOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value
  if (typeof value !== 'string') return undefined
  const time = Date.parse(value)
  return Number.isFinite(time) ? time : undefined
}
