import { isRecord, toolArguments } from '../plain-data'
import type { SourceRecord } from '../records'
import { writeNotCaptured } from './file-tools'

/**
 * A Cursor agent transcript (`~/.cursor/projects/<slug>/agent-transcripts/…/<id>.jsonl`, written
 * by the Cursor CLI and the editor's agent since 2026): one line per message,
 * `{"role": "user" | "assistant", "message": {"content": [blocks]}}` with Anthropic-style blocks
 * (`text`, `thinking`, `tool_use {name, input}`, `tool_result`), and `{"type": "turn_ended"}` after
 * each turn. What the user typed is wrapped in `<user_query>` inside injected context
 * (`<timestamp>`, `<workspace>`…); a user line without it is context, shown as a system message.
 * Tool calls carry no id and the transcript keeps no results: a call is shown without one.
 */
export function agentTranscriptRecords(text: string, sessionId: string): SourceRecord[] {
  const records: SourceRecord[] = []
  const open: string[] = []
  let offset = 0
  let lineNo = 0
  for (const line of text.split('\n')) {
    const at = offset
    offset += Buffer.byteLength(line, 'utf8') + 1
    lineNo++
    if (!line.trim()) continue
    let value: unknown
    try {
      value = JSON.parse(line) as unknown
    } catch {
      records.push({ kind: 'skipped', offset: at, reason: `line ${lineNo} is not JSON (truncated?)` })
      continue
    }
    if (isRecord(value) && value.type === 'turn_ended') {
      open.length = 0
      // A turn that failed (a usage limit, a lost connection) says why: shown, since the answer stops there.
      if (value.status === 'error') {
        const why = typeof value.error === 'string' && value.error ? value.error : 'no reason given'
        records.push({ kind: 'message', offset: at, uid: `${sessionId}:${lineNo}`, parentUid: null, agentId: null, startsTurn: false, role: 'system', content: `The turn ended with an error: ${why}` })
      }
      continue
    }
    const role = isRecord(value) ? value.role : undefined
    const content = isRecord(value) && isRecord(value.message) ? value.message.content : undefined
    if ((role !== 'user' && role !== 'assistant') || !(Array.isArray(content) || typeof content === 'string')) {
      records.push({ kind: 'skipped', offset: at, reason: `line ${lineNo} is not a message Retrace reads` })
      continue
    }
    const blocks: unknown[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content
    const line$ = { at, uid: `${sessionId}:${lineNo}`, meta: lineMeta(value as Record<string, unknown>) }
    records.push(...(role === 'user' ? userRecords(blocks, line$, open) : assistantRecords(blocks, line$, open)))
  }
  return records
}

interface LineInfo {
  at: number
  uid: string
  meta: { createdAt?: number; model?: string }
}

/** Some writers add `createdAt` (ISO) and `modelId` to a line; most lines have neither. */
function lineMeta(value: Record<string, unknown>): LineInfo['meta'] {
  const time = typeof value.createdAt === 'string' ? Date.parse(value.createdAt) : typeof value.createdAt === 'number' ? value.createdAt : NaN
  return { ...(Number.isFinite(time) && time > 0 ? { createdAt: time } : {}), ...(typeof value.modelId === 'string' && value.modelId ? { model: value.modelId } : {}) }
}

const USER_QUERY = /<user_query>([\s\S]*?)<\/user_query>/
const TIMESTAMP = /<timestamp>([^<]*)<\/timestamp>/

function userRecords(blocks: unknown[], line: LineInfo, open: string[]): SourceRecord[] {
  const results = blocks.filter((block) => isRecord(block) && block.type === 'tool_result')
  const text = blocks.map((block) => (isRecord(block) && block.type === 'text' && typeof block.text === 'string' ? block.text : '')).join('\n')
  const records: SourceRecord[] = results.flatMap((block, index) => resultRecord(block as Record<string, unknown>, `${line.uid}:r${index}`, line.at, open))
  if (!text.trim()) return records
  const query = USER_QUERY.exec(text)
  const typed = query ? (query[1] ?? '').trim() : text.trim().startsWith('<') ? null : text.trim()
  const stamp = TIMESTAMP.exec(text)
  const createdAt = line.meta.createdAt ?? (stamp ? cursorTimestamp(stamp[1] ?? '') : undefined)
  const base = { kind: 'message' as const, offset: line.at, uid: line.uid, parentUid: null, agentId: null, ...(createdAt !== undefined ? { createdAt } : {}) }
  if (typed === null) return [...records, { ...base, startsTurn: false, role: 'system', content: text }]
  open.length = 0
  return [...records, { ...base, startsTurn: true, role: 'user', content: typed }]
}

function assistantRecords(blocks: unknown[], line: LineInfo, open: string[]): SourceRecord[] {
  const records: SourceRecord[] = []
  const base = { kind: 'message' as const, offset: line.at, parentUid: null, agentId: null, startsTurn: false, ...line.meta }
  blocks.forEach((block, index) => {
    if (!isRecord(block)) return
    const uid = index === 0 ? line.uid : `${line.uid}:${index}`
    const text = block.type === 'text' && typeof block.text === 'string' ? withoutPlaceholder(block.text) : ''
    if (text) records.push({ ...base, uid, role: 'assistant', content: text })
    else if (block.type === 'thinking' && typeof block.thinking === 'string' && block.thinking) records.push({ ...base, uid, role: 'reasoning', content: block.thinking })
    else if (block.type === 'tool_use' && typeof block.name === 'string') {
      const callId = typeof block.id === 'string' && block.id ? block.id : uid
      open.push(callId)
      const input = toolArguments(block.input ?? null)
      records.push({ ...base, uid, role: 'tool_call', content: '', toolName: block.name, toolCallId: callId, toolInput: input })
      const command = shellCommandOf(block.name, input)
      if (command !== null) records.push({ kind: 'shell-command', offset: line.at, toolCallId: callId, command })
      const unrecorded = writeNotCaptured(block.name, input, callId, line.at, TRANSCRIPT_KEEPS_NO_FILE)
      if (unrecorded) records.push(unrecorded)
    } else if (block.type === 'tool_result') records.push(...resultRecord(block, uid, line.at, open))
  })
  return records
}

/** Why a transcript's file change is not rewindable: its lines keep the call alone (no result in most, no content before). */
export const TRANSCRIPT_KEEPS_NO_FILE = "Cursor's agent transcript keeps the call, not its result nor the file before or after it"

/**
 * The command of a shell tool call (`Shell` in transcripts, `run_terminal_cmd` and the like in
 * CLI chats): the files it changed are not known, so its turn says so.
 */
export function shellCommandOf(toolName: string, input: unknown): string | null {
  if (!/shell|terminal|bash/i.test(toolName) || !isRecord(input)) return null
  return typeof input.command === 'string' && input.command ? input.command : null
}

/**
 * Cursor ends most assistant texts of its transcripts with a bare `[REDACTED]` (alone on a tool
 * call's line, or after the text): a placeholder for what it left out, not part of the answer.
 */
function withoutPlaceholder(text: string): string {
  const cleaned = text.replace(/\s*\[REDACTED\]\s*$/, '')
  return cleaned.trim() ? cleaned : ''
}

/** A result pairs with the call it names, or (no id) with the oldest call still open in the turn. */
function resultRecord(block: Record<string, unknown>, uid: string, at: number, open: string[]): SourceRecord[] {
  const named = typeof block.tool_use_id === 'string' ? block.tool_use_id : null
  const callId = named ?? open[0]
  if (!callId) return []
  const index = open.indexOf(callId)
  if (index >= 0) open.splice(index, 1)
  const content = typeof block.content === 'string' ? block.content : Array.isArray(block.content) ? block.content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('\n') : JSON.stringify(block.content ?? '')
  return [{ kind: 'message', offset: at, uid, parentUid: null, agentId: null, startsTurn: false, role: 'tool_result', content, toolCallId: callId, isError: block.is_error === true }]
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/** Cursor's injected `<timestamp>`: "Tuesday, May 26, 2026, 10:57 PM (UTC+2)" (minutes only). */
export function cursorTimestamp(text: string): number | undefined {
  const match = /(\w{3})\w*\s+(\d{1,2}),\s*(\d{4}),\s*(\d{1,2}):(\d{2})\s*(AM|PM)\s*\(UTC(?:([+-])(\d{1,2})(?::?(\d{2}))?)?\)/i.exec(text)
  if (!match) return undefined
  const month = MONTHS.indexOf((match[1] ?? '').toLowerCase())
  if (month < 0) return undefined
  const hour = (Number(match[4]) % 12) + ((match[6] ?? '').toUpperCase() === 'PM' ? 12 : 0)
  const sign = match[7] === '-' ? -1 : 1
  const offsetMinutes = sign * (Number(match[8] ?? 0) * 60 + Number(match[9] ?? 0))
  return Date.UTC(Number(match[3]), month, Number(match[2]), hour, Number(match[5])) - offsetMinutes * 60_000
}
