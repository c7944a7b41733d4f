import { basename } from 'node:path'
import { isRecord } from '../plain-data'
import { canonicalJson, describeType, isoTime, readJsonFile } from './json'

/** The `SessionMessage.type`s the seed names (§ Data Models). */
export const MESSAGE_TYPES = ['user', 'assistant', 'tool_result', 'tool_call', 'reasoning', 'plan_progress', 'steer', 'diff_preview'] as const
export type MessageType = (typeof MESSAGE_TYPES)[number]

/** One `SessionMessage`, its fields checked: a field of the wrong type is reported and left out, never reinterpreted. */
export interface SessionEntry {
  /** Position in the file's `messages` (problems and uids name it). */
  index: number
  /** As written; a type the seed does not name is kept and shown as a note. */
  type: string
  content: string
  createdAt: number | undefined
  toolCallName: string | undefined
  /** Only a real boolean: `"true"` is not success. */
  toolCallSuccess: boolean | undefined
  taskState: Record<string, unknown> | undefined
  /** The entry as written (canonical JSON): a branched session's copy of its parent's messages is recognised by it. */
  raw: string
}

/** A `Session` file (`sessions/<id>.json`) that Code Buddy's own `loadSession` would accept. */
export interface CodeBuddySession {
  /** The file name without `.json`: Code Buddy names the file after the id, and the branch folder after it too. */
  key: string
  /** `sessions/<file>`, for problems. */
  label: string
  name: string | undefined
  workingDirectory: string | undefined
  model: string | undefined
  createdAt: number
  messages: SessionEntry[]
  /** `SessionStore.branchSession`: the session this one copied (`metadata.branchedFrom`) and the last index it copied. */
  branchedFrom: { sessionId: string; at: number } | undefined
}

/** Files in `sessions/` that are sessions: `<id>.json` (not the `<id>.json.lock` beside a locked one). */
export function isSessionFileName(name: string): boolean {
  return name.endsWith('.json')
}

const METADATA_FIELDS: Record<string, 'string' | 'number' | 'string[]'> = {
  description: 'string',
  tags: 'string[]',
  securityMode: 'string',
  agentMode: 'string',
  tokenCount: 'number',
  totalCost: 'number',
  toolCallCount: 'number',
  runIds: 'string[]',
  branchedFrom: 'string',
  branchedAt: 'number'
}

/**
 * Read one session file. The file is rejected (with one problem) when Code Buddy could not load
 * it either: not JSON, not an object, `messages` not an array, `createdAt` not a date. Otherwise
 * every field of the wrong type is one problem, and the rest of the session is kept.
 */
export function readSessionFile(path: string): { session: CodeBuddySession | null; problems: string[] } {
  const label = `sessions/${basename(path)}`
  const read = readJsonFile(path)
  if (!read.ok) return { session: null, problems: [`${label}: ${read.problem}; not imported`] }
  const data = read.value
  if (!isRecord(data)) return { session: null, problems: [`${label}: the file holds ${describeType(data)}, not a session object; not imported`] }
  if (!Array.isArray(data.messages)) return { session: null, problems: [`${label}: "messages" is ${describeType(data.messages)}, not a list; not imported`] }
  const createdAt = isoTime(data.createdAt)
  if (createdAt === undefined) return { session: null, problems: [`${label}: "createdAt" is ${describeType(data.createdAt)}, not a date; not imported`] }

  const problems: string[] = []
  const text = (field: string): string | undefined => {
    const value = data[field]
    if (value === undefined || typeof value === 'string') return value
    problems.push(`${label}: "${field}" is ${describeType(value)}, not a string; ignored`)
    return undefined
  }
  const name = text('name')
  const workingDirectory = text('workingDirectory')
  const model = text('model')
  if (data.lastAccessedAt !== undefined && isoTime(data.lastAccessedAt) === undefined) problems.push(`${label}: "lastAccessedAt" is ${describeType(data.lastAccessedAt)}, not a date; ignored`)
  const metadata = checkMetadata(data.metadata, label, problems)
  const key = basename(path, '.json')
  if (typeof data.id === 'string' && data.id !== key) problems.push(`${label}: its "id" is ${data.id}, not the file's name; imported under the file's name`)

  const messages: SessionEntry[] = []
  data.messages.forEach((message: unknown, index) => {
    const entry = readEntry(message, index, `${label}, message ${index}`, problems)
    if (entry) messages.push(entry)
  })
  const branchedFrom = typeof metadata.branchedFrom === 'string' && typeof metadata.branchedAt === 'number' ? { sessionId: metadata.branchedFrom, at: metadata.branchedAt } : undefined
  // A wrong-typed branchedAt was reported with the metadata; a missing one is reported here.
  if (typeof metadata.branchedFrom === 'string' && isRecord(data.metadata) && data.metadata.branchedAt === undefined) problems.push(`${label}: "metadata.branchedFrom" without a numeric "branchedAt"; imported as a session of its own`)
  return { session: { key, label, name, workingDirectory, model, createdAt, messages, branchedFrom }, problems }
}

/** `SessionMetadata`: open keys are allowed, the known ones must have their type. */
function checkMetadata(value: unknown, label: string, problems: string[]): Record<string, unknown> {
  if (value === undefined) return {}
  if (!isRecord(value)) {
    problems.push(`${label}: "metadata" is ${describeType(value)}, not an object; ignored`)
    return {}
  }
  const checked: Record<string, unknown> = {}
  for (const [field, inner] of Object.entries(value)) {
    const expected = METADATA_FIELDS[field]
    const fits =
      expected === undefined ||
      (expected === 'string[]' ? Array.isArray(inner) && inner.every((item) => typeof item === 'string') : typeof inner === expected && (expected !== 'number' || Number.isFinite(inner)))
    if (fits) checked[field] = inner
    else problems.push(`${label}: "metadata.${field}" is ${describeType(inner)}, not ${expected === 'string[]' ? 'a list of strings' : `a ${expected}`}; ignored`)
  }
  return checked
}

function readEntry(message: unknown, index: number, where: string, problems: string[]): SessionEntry | null {
  if (!isRecord(message)) {
    problems.push(`${where}: ${describeType(message)}, not a message object; skipped`)
    return null
  }
  let type = message.type
  if (typeof type !== 'string') {
    problems.push(`${where}: "type" is ${describeType(type)}; kept as a note`)
    type = 'untyped'
  } else if (!(MESSAGE_TYPES as readonly string[]).includes(type)) {
    problems.push(`${where}: unknown message type "${type}"; kept as a note`)
  }
  let content = ''
  if (typeof message.content === 'string') content = message.content
  else {
    if (message.content !== null && message.content !== undefined) content = JSON.stringify(message.content, null, 2) ?? ''
    problems.push(`${where}: "content" is ${describeType(message.content)}, not text; ${content ? 'shown as JSON' : 'shown empty'}`)
  }
  const createdAt = isoTime(message.timestamp)
  if (createdAt === undefined) problems.push(`${where}: "timestamp" is ${describeType(message.timestamp)}, not a date; the previous message's time is used`)
  const optional = <T>(field: string, accept: (value: unknown) => value is T, what: string): T | undefined => {
    const value = message[field]
    if (value === undefined) return undefined
    if (accept(value)) return value
    problems.push(`${where}: "${field}" is ${describeType(value)}, not ${what}; ignored`)
    return undefined
  }
  return {
    index,
    type: type as string,
    content,
    createdAt,
    toolCallName: optional('toolCallName', (value): value is string => typeof value === 'string' && value.length > 0, 'a tool name'),
    toolCallSuccess: optional('toolCallSuccess', (value): value is boolean => typeof value === 'boolean', 'true or false'),
    taskState: optional('taskState', isRecord, 'an object'),
    raw: canonicalJson(message)
  }
}
