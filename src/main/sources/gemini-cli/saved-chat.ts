import type { MessageRecord, SourceRecord } from '../records'
import { asObject, asString, partsText } from './parts'

/** `/chat save <tag>` writes `tmp/<project>/checkpoint-<encodeURIComponent(tag)>.json`. */
export const SAVED_CHAT_FILE = /^checkpoint-(.+)\.json$/

/** The tag a saved chat's file name encodes (Gemini's decodeTagName). */
export function savedChatTag(fileName: string): string | null {
  const encoded = SAVED_CHAT_FILE.exec(fileName)?.[1]
  if (encoded === undefined) return null
  try {
    return decodeURIComponent(encoded)
  } catch {
    return encoded
  }
}

/**
 * A chat saved with `/chat save <tag>` (logger.ts `saveCheckpoint`): the model's history at that
 * point, `{history: Content[]}` (older versions: the bare list), not the recording — so no
 * tokens, model or times. Each user `Content` with text opens a turn; one holding only function
 * responses gives tool results; a model `Content` gives thoughts, text and function calls.
 * Becomes a session titled after the tag, so a saved chat outlives the recordings Gemini purges.
 */
export function savedChatRecords(text: string, tag: string): SourceRecord[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return [{ kind: 'skipped', offset: 0, reason: 'Gemini CLI saved chat is not valid JSON (cut short?)' }]
  }
  const history = Array.isArray(parsed) ? parsed : asObject(parsed)?.history
  if (!Array.isArray(history)) return [{ kind: 'skipped', offset: 0, reason: 'Gemini CLI saved chat has no history list' }]
  const records: SourceRecord[] = [{ kind: 'session-meta', offset: 0, title: `Saved chat: ${tag}`, titleOrigin: 'custom' }]
  history.forEach((value, index) => records.push(...contentRecords(value, index)))
  return records
}

function contentRecords(value: unknown, index: number): SourceRecord[] {
  const content = asObject(value)
  const parts = Array.isArray(content?.parts) ? (content.parts as unknown[]).map(asObject).filter((part) => part !== null) : []
  const base = { kind: 'message' as const, offset: index, uid: null, parentUid: null, agentId: null, startsTurn: false }
  if (!content || parts.length === 0) return []
  const records: MessageRecord[] = []
  if (content.role === 'user') {
    for (const part of parts) {
      const response = asObject(part.functionResponse)
      if (!response) continue
      const id = asString(response.id)
      records.push({ ...base, role: 'tool_result', content: partsText([part]), toolName: asString(response.name) ?? 'tool', ...(id ? { toolCallId: id } : {}) })
    }
    const text = partsText(parts.filter((part) => !part.functionResponse)).trim()
    // Gemini's start-up context (older: "This is the Gemini CLI…", now <session_context>) is no prompt.
    const context = /^(<session_context>|This is the Gemini CLI\.)/.test(text)
    if (text) records.unshift({ ...base, role: context ? 'system' : 'user', startsTurn: !context, content: text })
    return records
  }
  const thoughts = parts.filter((part) => part.thought === true && typeof part.text === 'string').map((part) => String(part.text).trim())
  if (thoughts.length > 0) records.push({ ...base, role: 'reasoning', content: thoughts.join('\n\n') })
  const text = partsText(parts).trim()
  if (text) records.push({ ...base, role: 'assistant', content: text })
  for (const part of parts) {
    const call = asObject(part.functionCall)
    const name = call ? asString(call.name) : undefined
    if (!call || name === undefined) continue
    const id = asString(call.id)
    records.push({ ...base, role: 'tool_call', content: `${name} ${JSON.stringify(call.args ?? {})}`, toolName: name, toolInput: call.args ?? {}, ...(id ? { toolCallId: id } : {}) })
  }
  return records
}
