import { isRecord, textOfContent, toolArguments } from '../plain-data'
import type { SourceRecord } from '../records'
import { shellCommandOf } from './agent-transcript'
import { writeNotCaptured } from './file-tools'

const USER_QUERY = /<user_query>([\s\S]*?)<\/user_query>/

/**
 * One message blob of a CLI chat store (JSON, AI-SDK style): `user` (text, what was typed inside
 * `<user_query>` when wrapped in injected context), `assistant` (`text`, `reasoning` and
 * `tool-call {toolCallId, toolName, args}` parts, `model`), `tool` (`tool-result {toolCallId,
 * result}` parts; an error when `providerOptions.cursor.highLevelToolCallResult.isError`).
 * `system` messages (the system prompt) are not shown. Null: not a message Retrace reads.
 */
export function cliMessageRecords(value: unknown, uid: string, offset: number): SourceRecord[] | null {
  if (!isRecord(value)) return null
  const base = { kind: 'message' as const, offset, parentUid: null, agentId: null, startsTurn: false }
  const parts: unknown[] = Array.isArray(value.content) ? value.content : []
  switch (value.role) {
    case 'system':
      return []
    case 'user': {
      const text = textOfContent(value.content)
      const query = USER_QUERY.exec(text)
      const typed = query ? (query[1] ?? '').trim() : text.trim().startsWith('<') ? null : text.trim()
      if (typed === null) return text.trim() ? [{ ...base, uid, role: 'system', content: text }] : []
      return [{ ...base, uid, startsTurn: true, role: 'user', content: typed }]
    }
    case 'assistant': {
      const model = typeof value.model === 'string' && value.model ? { model: value.model } : {}
      return parts.flatMap((part, index): SourceRecord[] => {
        if (!isRecord(part)) return []
        const partUid = index === 0 ? uid : `${uid}:${index}`
        if (part.type === 'text' && typeof part.text === 'string' && part.text) return [{ ...base, uid: partUid, role: 'assistant', content: part.text, ...model }]
        if (part.type === 'reasoning' && typeof part.text === 'string' && part.text) return [{ ...base, uid: partUid, role: 'reasoning', content: part.text, ...model }]
        if (part.type !== 'tool-call') return []
        const callId = typeof part.toolCallId === 'string' && part.toolCallId ? part.toolCallId : partUid
        const toolName = typeof part.toolName === 'string' && part.toolName ? part.toolName : 'tool'
        const input = toolArguments(part.args ?? null)
        const command = shellCommandOf(toolName, input)
        const unrecorded = writeNotCaptured(toolName, input, callId, offset, "Cursor's CLI chat keeps the call and its result, not the file before or after it")
        return [
          { ...base, uid: partUid, role: 'tool_call', content: '', toolName, toolCallId: callId, toolInput: input, ...model },
          ...(command !== null ? [{ kind: 'shell-command' as const, offset, toolCallId: callId, command }] : []),
          ...(unrecorded ? [unrecorded] : [])
        ]
      })
    }
    case 'tool': {
      const options = isRecord(value.providerOptions) && isRecord(value.providerOptions.cursor) ? value.providerOptions.cursor : {}
      const isError = isRecord(options.highLevelToolCallResult) && options.highLevelToolCallResult.isError === true
      return parts.flatMap((part, index): SourceRecord[] => {
        if (!isRecord(part) || part.type !== 'tool-result' || typeof part.toolCallId !== 'string') return []
        const content = typeof part.result === 'string' ? part.result : JSON.stringify(part.result ?? '')
        return [{ ...base, uid: `${uid}:${index}`, role: 'tool_result', content, toolCallId: part.toolCallId, ...(typeof part.toolName === 'string' ? { toolName: part.toolName } : {}), isError }]
      })
    }
    default:
      return null
  }
}
