import { basename } from 'node:path'
import { isRecord, toolArguments } from '../plain-data'
import { canonicalJson, describeType, isoTime, readJsonFile } from './json'

/**
 * One `CodeBuddyMessage` of a branch (an OpenAI chat message). Every entry of the file becomes
 * one, even an unreadable one (`other`), so positions stay those `parentMessageIndex` counts in.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool' | 'other'
  content: string
  toolCalls: { id: string; name: string; input: unknown }[]
  toolCallId: string | undefined
  /** The entry as written (canonical JSON): branches share a prefix, and merges copy messages, by equality. */
  raw: string
}

/** A `ConversationBranch` file (`branches/<session-id>/<branch-id>.json`). */
export interface BranchFile {
  id: string
  /** `branches/<folder>/<file>`, for problems. */
  label: string
  name: string
  parentId: string | undefined
  /** As written: checked against the parent's length when the tree is built. */
  parentMessageIndex: unknown
  createdAt: number | undefined
  updatedAt: number | undefined
  model: string | undefined
  messages: ChatMessage[]
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool'])

/** Read one branch file; a file that is not JSON, not an object or has no `messages` list is one problem. */
export function readBranchFile(path: string, folder: string): { branch: BranchFile | null; problems: string[] } {
  // Loose files in `branches/` itself come as folder `.`.
  const label = folder === '.' ? `branches/${basename(path)}` : `branches/${folder}/${basename(path)}`
  const read = readJsonFile(path)
  if (!read.ok) return { branch: null, problems: [`${label}: ${read.problem}; branch not imported`] }
  const data = read.value
  if (!isRecord(data)) return { branch: null, problems: [`${label}: the file holds ${describeType(data)}, not a branch object; not imported`] }
  if (!Array.isArray(data.messages)) return { branch: null, problems: [`${label}: "messages" is ${describeType(data.messages)}, not a list; branch not imported`] }
  const problems: string[] = []
  const id = typeof data.id === 'string' && data.id ? data.id : basename(path, '.json')
  if (data.parentId !== undefined && typeof data.parentId !== 'string') problems.push(`${label}: "parentId" is ${describeType(data.parentId)}; shown as a root`)
  for (const field of ['createdAt', 'updatedAt'] as const) {
    if (data[field] !== undefined && isoTime(data[field]) === undefined) problems.push(`${label}: "${field}" is ${describeType(data[field])}, not a date; ignored`)
  }
  const metadata = isRecord(data.metadata) ? data.metadata : {}
  return {
    branch: {
      id,
      label,
      name: typeof data.name === 'string' && data.name ? data.name : id,
      parentId: typeof data.parentId === 'string' ? data.parentId : undefined,
      parentMessageIndex: data.parentMessageIndex,
      createdAt: isoTime(data.createdAt),
      updatedAt: isoTime(data.updatedAt),
      model: typeof metadata.model === 'string' ? metadata.model : undefined,
      messages: data.messages.map((message: unknown, index) => chatMessage(message, `${label}, message ${index}`, problems))
    },
    problems
  }
}

function chatMessage(message: unknown, where: string, problems: string[]): ChatMessage {
  const raw = canonicalJson(message)
  if (!isRecord(message) || typeof message.role !== 'string' || !ROLES.has(message.role)) {
    problems.push(`${where}: ${isRecord(message) ? `role ${describeType(message.role)}` : describeType(message)} is not a chat message; kept as a note`)
    return { role: 'other', content: JSON.stringify(message, null, 2) ?? '', toolCalls: [], toolCallId: undefined, raw }
  }
  // An assistant message that only calls tools has `content: null`.
  const content = typeof message.content === 'string' ? message.content : message.content === null || message.content === undefined ? '' : JSON.stringify(message.content)
  const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls.flatMap((call: unknown, index) => toolCall(call, `${where}, tool call ${index}`, problems)) : []
  return {
    role: message.role as ChatMessage['role'],
    content,
    toolCalls,
    toolCallId: typeof message.tool_call_id === 'string' ? message.tool_call_id : undefined,
    raw
  }
}

/** `{id, type: "function", function: {name, arguments: "<JSON string>"}}`; arguments that are not JSON are kept as text. */
function toolCall(call: unknown, where: string, problems: string[]): ChatMessage['toolCalls'] {
  const fn = isRecord(call) && isRecord(call.function) ? call.function : undefined
  if (!isRecord(call) || typeof call.id !== 'string' || !fn || typeof fn.name !== 'string') {
    problems.push(`${where}: not a function call with an id and a name; skipped`)
    return []
  }
  return [{ id: call.id, name: fn.name, input: toolArguments(fn.arguments) ?? null }]
}
