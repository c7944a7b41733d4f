import type { MessageRecord, SourceRecord } from '../records'
import { shellCommandOf, TRANSCRIPT_KEEPS_NO_FILE } from './agent-transcript'
import { writeNotCaptured } from './file-tools'

const ROLE_LINE = /^(user|assistant):\s*$/
const USER_QUERY = /<user_query>([\s\S]*?)<\/user_query>/
const MARKER = /^\[(Thinking|Tool call|Tool result)\]\s?(.*)$/

/**
 * The first agent transcripts (`agent-transcripts/<id>.txt`, 2025): plain text, each message
 * opened by a `user:` or `assistant:` line. A user message's `<user_query>` is the prompt (bare
 * text too; injected context alone is a system message). In an assistant message, `[Thinking] …`
 * is reasoning, `[Tool call] Name` a call whose indented `key: value` lines are its input, and
 * `[Tool result] Name` its result (everything up to the next marker), paired with the oldest
 * open call of that name; other lines are the answer.
 */
export function textTranscriptRecords(text: string, sessionId: string): SourceRecord[] {
  const records: SourceRecord[] = []
  const open: { id: string; name: string }[] = []
  let role: 'user' | 'assistant' | null = null
  let segment: { kind: 'text' | 'reasoning' | 'call' | 'result'; name: string; lines: string[]; at: number } | null = null
  let offset = 0
  let count = 0
  const base = (at: number) => ({ kind: 'message' as const, offset: at, uid: `${sessionId}:${++count}`, parentUid: null, agentId: null, startsTurn: false })
  const flush = () => {
    if (segment && role) records.push(...segmentRecords(role, segment, base(segment.at), open))
    segment = null
  }
  for (const line of text.split('\n')) {
    const at = offset
    offset += Buffer.byteLength(line, 'utf8') + 1
    const roleLine = ROLE_LINE.exec(line)
    if (roleLine) {
      flush()
      role = roleLine[1] === 'user' ? 'user' : 'assistant'
      continue
    }
    if (!role) continue
    const marker = role === 'assistant' ? MARKER.exec(line) : null
    if (marker) {
      flush()
      const kind = marker[1] === 'Thinking' ? 'reasoning' : marker[1] === 'Tool call' ? 'call' : 'result'
      segment = { kind, name: kind === 'reasoning' ? '' : (marker[2] ?? '').trim(), lines: kind === 'reasoning' ? [marker[2] ?? ''] : [], at }
      continue
    }
    // A call's input is its indented lines; the first line that is not ends it.
    if (segment?.kind === 'call' && line.trim() && !/^\s/.test(line)) flush()
    segment ??= { kind: 'text', name: '', lines: [], at }
    segment.lines.push(line)
  }
  flush()
  return records
}

type Base = Omit<MessageRecord, 'role' | 'content'>

function segmentRecords(role: 'user' | 'assistant', segment: { kind: string; name: string; lines: string[] }, base: Base, open: { id: string; name: string }[]): SourceRecord[] {
  const text = segment.lines.join('\n').trim()
  if (role === 'user') {
    if (!text) return []
    const query = USER_QUERY.exec(text)
    const typed = query ? (query[1] ?? '').trim() : text.startsWith('<') ? null : text
    if (typed === null) return [{ ...base, role: 'system', content: text }]
    open.length = 0
    return [{ ...base, startsTurn: true, role: 'user', content: typed }]
  }
  if (segment.kind === 'call') {
    const input = inputOf(segment.lines)
    const callId = base.uid ?? segment.name
    open.push({ id: callId, name: segment.name })
    const command = shellCommandOf(segment.name, input)
    const unrecorded = writeNotCaptured(segment.name, input, callId, base.offset, TRANSCRIPT_KEEPS_NO_FILE)
    return [
      { ...base, role: 'tool_call', content: '', toolName: segment.name, toolCallId: callId, toolInput: input },
      ...(command !== null ? [{ kind: 'shell-command' as const, offset: base.offset, toolCallId: callId, command }] : []),
      ...(unrecorded ? [unrecorded] : [])
    ]
  }
  if (segment.kind === 'result') {
    const index = Math.max(0, open.findIndex((call) => call.name === segment.name))
    const call = open.splice(index, 1)[0]
    return call ? [{ ...base, role: 'tool_result', content: text, toolCallId: call.id, toolName: call.name }] : []
  }
  if (!text) return []
  return [{ ...base, role: segment.kind === 'reasoning' ? 'reasoning' : 'assistant', content: text }]
}

/** `  key: value` lines as an object; a line without a key continues the previous value. */
function inputOf(lines: string[]): Record<string, string> {
  const input: Record<string, string> = {}
  let last: string | null = null
  for (const line of lines) {
    const pair = /^\s+([\w.-]+):\s?(.*)$/.exec(line)
    if (pair?.[1]) input[(last = pair[1])] = pair[2] ?? ''
    else if (last !== null && line.trim()) input[last] += `\n${line.trim()}`
  }
  return input
}
