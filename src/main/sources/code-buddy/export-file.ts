import { createHash } from 'node:crypto'
import { closeSync, openSync, readSync } from 'node:fs'
import { basename } from 'node:path'
import type { SnapshotSession } from '../adapter'
import type { MessageRecord, SourceRecord } from '../records'
import { isRecord } from '../plain-data'
import { describeType, readJsonFile } from './json'
import { withFileCalls } from './file-calls'
import { checkpointNote } from './notes'

/** The first bytes of an `ExportedSession` as `SessionExporter` writes it (`JSON.stringify(session, null, 2)`). */
const HEAD_BYTES = 4096

/**
 * Whether a JSON file is an `ExportedSession` (seed § SessionRecorder / SessionExporter /
 * SessionPlayer): `version`, then `exportedAt` as epoch ms, then `metadata`, at the top. Only the
 * head is read. `SessionStore.exportToJson` files (`"format": "code-buddy-session"`, an ISO
 * `exportedAt`) do not match: Code Buddy cannot load those back, and their session is already
 * imported from `sessions/`.
 */
export function looksLikeExport(path: string): boolean {
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    const buffer = Buffer.alloc(HEAD_BYTES)
    const head = buffer.subarray(0, readSync(fd, buffer, 0, HEAD_BYTES, 0)).toString('utf8')
    return /^\s*\{\s*"version"\s*:\s*"[^"]*"\s*,\s*"exportedAt"\s*:\s*\d/.test(head) && head.includes('"metadata"')
  } catch {
    return false
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/**
 * An exported session as one session: Code Buddy's `SessionPlayer` loads these files back to
 * replay them, so they are history the user kept. Messages are role-based records with their
 * tool calls and results attached to the assistant message that made them. The checkpoints
 * (replay stops) become notes where they fall: a Retrace turn starts only at a user prompt, and
 * these stops fall mid-turn (after a prompt, between tool calls), so they cannot be turn
 * boundaries without inventing prompts.
 */
export function readExportFile(path: string): { sessions: SnapshotSession[]; problems: string[] } {
  const label = basename(path)
  const read = readJsonFile(path)
  if (!read.ok) return { sessions: [], problems: [`${label}: ${read.problem}; not imported`] }
  const data = read.value
  if (!isRecord(data) || !Array.isArray(data.messages)) {
    return { sessions: [], problems: [`${label}: ${isRecord(data) ? `"messages" is ${describeType(data.messages)}` : `the file holds ${describeType(data)}`}, not an exported session; not imported`] }
  }
  const messages: unknown[] = data.messages
  const problems: string[] = []
  const metadata = isRecord(data.metadata) ? data.metadata : {}
  if (!isRecord(data.metadata)) problems.push(`${label}: "metadata" is ${describeType(data.metadata)}, not an object; ignored`)
  const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined)
  const epoch = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.trunc(value) : undefined)
  const stem = basename(path, '.json')
  // The recording's id alone is not enough: the same recording exported twice is two files.
  const key = `export:${stem}:${text(metadata.id) ?? ''}`
  const createdAt = epoch(metadata.createdAt) ?? epoch((messages[0] as Record<string, unknown> | undefined)?.timestamp)
  const name = text(metadata.name)
  const model = text(metadata.model)
  const records: SourceRecord[] = [
    {
      kind: 'session-meta',
      offset: 0,
      sessionId: key,
      title: `${name ?? stem} (export)`,
      titleOrigin: 'ai',
      ...(text(metadata.projectPath) ? { cwd: text(metadata.projectPath) } : {}),
      ...(model ? { model } : {}),
      ...(createdAt !== undefined ? { createdAt } : {})
    }
  ]
  const checkpoints = exportCheckpoints(data.checkpoints, messages.length, label, problems)
  const unanswered: { name: string; id: string }[] = []
  let lastTime = createdAt
  messages.forEach((message: unknown, index) => {
    const where = `${label}, message ${index}`
    for (const checkpoint of checkpoints.filter((stop) => stop.messageIndex === index)) records.push(note(`${key}#checkpoint:${checkpoint.id}`, index, checkpointNote(checkpoint.label), checkpoint.createdAt ?? lastTime))
    if (!isRecord(message)) return void problems.push(`${where}: ${describeType(message)}, not a message; skipped`)
    const time = epoch(message.timestamp)
    if (time === undefined) problems.push(`${where}: "timestamp" is ${describeType(message.timestamp)}, not epoch milliseconds; the previous message's time is used`)
    lastTime = time ?? lastTime
    const uid = text(message.id) ?? `${key}#${index}`
    records.push(...exportMessageRecords(message, { uid, index, createdAt: lastTime, model, where, problems, unanswered }))
  })
  for (const checkpoint of checkpoints.filter((stop) => stop.messageIndex === messages.length)) records.push(note(`${key}#checkpoint:${checkpoint.id}`, messages.length, checkpointNote(checkpoint.label), checkpoint.createdAt ?? lastTime))
  const fingerprint = createHash('sha256').update(JSON.stringify(records)).digest('hex')
  return { sessions: [{ key, fingerprint, forkedFrom: null, startedAt: createdAt, records: withFileCalls(records, () => true) }], problems }
}

interface ExportCheckpoint {
  id: string
  messageIndex: number
  label: string
  createdAt: number | undefined
}

/** `SessionCheckpoint`s: `messageIndex` = how many messages come before the stop (0 … the message count). */
function exportCheckpoints(value: unknown, messageCount: number, label: string, problems: string[]): ExportCheckpoint[] {
  if (value === undefined) return []
  if (!Array.isArray(value)) {
    problems.push(`${label}: "checkpoints" is ${describeType(value)}, not a list; ignored`)
    return []
  }
  return value.flatMap((checkpoint: unknown, index): ExportCheckpoint[] => {
    const at = isRecord(checkpoint) ? checkpoint.messageIndex : undefined
    if (!isRecord(checkpoint) || typeof at !== 'number' || !Number.isInteger(at) || at < 0 || at > messageCount) {
      problems.push(`${label}, checkpoint ${index}: ${isRecord(checkpoint) ? `"messageIndex" ${JSON.stringify(at)} is not a position among ${messageCount} messages` : 'not an object'}; skipped`)
      return []
    }
    const created = checkpoint.createdAt
    return [
      {
        id: typeof checkpoint.id === 'string' ? checkpoint.id : String(index),
        messageIndex: at,
        label: typeof checkpoint.label === 'string' ? checkpoint.label : `#${index + 1}`,
        createdAt: typeof created === 'number' && Number.isFinite(created) && created >= 0 ? Math.trunc(created) : undefined
      }
    ]
  })
}

interface MessageContext {
  uid: string
  index: number
  createdAt: number | undefined
  model: string | undefined
  where: string
  problems: string[]
  /** Calls without an attached result, oldest first: a later `tool` message answers one by name. */
  unanswered: { name: string; id: string }[]
}

/** One export message: an assistant's text, then each tool call followed by its result; a `tool` message as a result. */
function exportMessageRecords(message: Record<string, unknown>, context: MessageContext): MessageRecord[] {
  const { uid, index, createdAt, where, problems } = context
  let count = 0
  const base = () => ({ kind: 'message' as const, offset: index, uid: count++ === 0 ? uid : `${uid}+${count - 1}`, parentUid: null, agentId: null, startsTurn: false, ...(createdAt !== undefined ? { createdAt } : {}) })
  let content = ''
  if (typeof message.content === 'string') content = message.content
  else if (message.content !== null && message.content !== undefined) {
    content = JSON.stringify(message.content, null, 2) ?? ''
    problems.push(`${where}: "content" is ${describeType(message.content)}, not text; shown as JSON`)
  }
  const byModel = context.model ? { model: context.model } : {}
  const meta = isRecord(message.metadata) ? message.metadata : {}
  switch (message.role) {
    case 'user':
      return [{ ...base(), role: 'user', content, startsTurn: true }]
    case 'system':
      return [{ ...base(), role: 'system', content }]
    case 'tool': {
      const name = typeof meta.toolName === 'string' ? meta.toolName : undefined
      const at = context.unanswered.findLastIndex((call) => name === undefined || call.name === name)
      const call = at >= 0 ? context.unanswered.splice(at, 1)[0] : undefined
      const failed = typeof meta.exitCode === 'number' ? meta.exitCode !== 0 : typeof meta.success === 'boolean' ? !meta.success : undefined
      return [{ ...base(), role: 'tool_result', content, toolCallId: call?.id ?? uid, ...(name ? { toolName: name } : {}), ...(failed !== undefined ? { isError: failed } : {}) }]
    }
    case 'assistant': {
      const calls = Array.isArray(message.toolCalls) ? message.toolCalls : []
      const results = Array.isArray(message.toolResults) ? message.toolResults.filter(isRecord) : []
      const records: MessageRecord[] = []
      if (content || calls.length === 0) records.push({ ...base(), role: 'assistant', content, ...byModel })
      const answered = new Set<unknown>()
      calls.forEach((call: unknown, callIndex) => {
        if (!isRecord(call) || typeof call.name !== 'string' || !call.name) return void problems.push(`${where}, tool call ${callIndex}: no tool name; skipped`)
        const id = typeof call.id === 'string' && call.id ? call.id : `${uid}/call-${callIndex}`
        records.push({ ...base(), role: 'tool_call', content: '', toolName: call.name, toolCallId: id, toolInput: call.arguments ?? null, ...byModel })
        const result = results.find((candidate) => candidate.toolCallId === id)
        if (!result) return void context.unanswered.push({ name: call.name, id })
        answered.add(result)
        records.push(resultRecord(base(), result, id, call.name))
      })
      for (const result of results.filter((candidate) => !answered.has(candidate))) records.push(resultRecord(base(), result, typeof result.toolCallId === 'string' && result.toolCallId ? result.toolCallId : `${uid}/result`, undefined))
      return records
    }
    default:
      problems.push(`${where}: role ${describeType(message.role)} is not user, assistant, system or tool; kept as a note`)
      return [{ ...base(), role: 'system', content: `Exported message with the role ${JSON.stringify(message.role)}:\n${content}` }]
  }
}

/** `{toolCallId, result, success, duration}`: `success` must be a real boolean to say anything. */
function resultRecord(base: Omit<MessageRecord, 'role' | 'content'>, result: Record<string, unknown>, toolCallId: string, toolName: string | undefined): MessageRecord {
  const content = typeof result.result === 'string' ? result.result : (JSON.stringify(result.result ?? null, null, 2) ?? '')
  return { ...base, role: 'tool_result', content, toolCallId, ...(toolName ? { toolName } : {}), ...(typeof result.success === 'boolean' ? { isError: !result.success } : {}) }
}

function note(uid: string, offset: number, content: string, createdAt: number | undefined): MessageRecord {
  return { kind: 'message', offset, uid, parentUid: null, agentId: null, startsTurn: false, role: 'system', content, ...(createdAt !== undefined ? { createdAt } : {}) }
}
