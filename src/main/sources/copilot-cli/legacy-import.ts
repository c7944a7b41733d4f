import type { SourceRecord } from '../records'
import { message, str, type CopilotEvent, type Data } from './events'
import type { ParserState } from './parser-state'

/**
 * `session.import_legacy`: Copilot CLI's first releases kept a session as one JSON file
 * (`history-session-state/session_<id>_<ms>.json`); on resuming one, later releases copy its
 * OpenAI-style `chatMessages` into this event. They become the session's first turns: user
 * prompts (system and developer messages are the agent's own), answers, tool calls paired with
 * the `tool` messages by `tool_call_id`.
 */
export function legacyMessages(event: CopilotEvent, state: ParserState): SourceRecord[] {
  const legacy = (event.data.legacySession ?? {}) as Data
  const chat = Array.isArray(legacy.chatMessages) ? (legacy.chatMessages as unknown[]) : []
  const records: SourceRecord[] = []
  chat.forEach((entry, index) => {
    if (!entry || typeof entry !== 'object') return
    const m = entry as Data
    const suffix = `/legacy-${index}`
    const content = textOf(m.content)
    switch (m.role) {
      case 'user':
        if (!state.titled && content.trim() !== '') {
          state.titled = true
          records.push({ kind: 'session-meta', offset: event.offset, title: content, titleOrigin: 'first-prompt' })
        }
        records.push(message(event, 'user', content, { startsTurn: true }, suffix))
        break
      case 'assistant':
        if (content.trim() !== '') records.push(message(event, 'assistant', content, {}, suffix))
        for (const call of Array.isArray(m.tool_calls) ? (m.tool_calls as unknown[]) : []) records.push(...legacyCall(event, state, call, suffix))
        break
      case 'tool': {
        const id = str(m, 'tool_call_id')
        if (!id) break
        const name = state.calls[id]
        delete state.calls[id]
        records.push(message(event, 'tool_result', content, { toolCallId: id, ...(name ? { toolName: name } : {}) }, `${suffix}/${id}`))
        break
      }
    }
  })
  return records
}

function legacyCall(event: CopilotEvent, state: ParserState, call: unknown, suffix: string): SourceRecord[] {
  if (!call || typeof call !== 'object') return []
  const c = call as Data
  const fn = (c.function ?? {}) as Data
  const id = str(c, 'id')
  const name = str(fn, 'name')
  if (!id || !name) return []
  const raw = str(fn, 'arguments') ?? ''
  let args: unknown = raw
  try {
    args = JSON.parse(raw)
  } catch {
    // Arguments the model cut short stay as text.
  }
  state.calls[id] = name
  return [message(event, 'tool_call', raw, { toolName: name, toolCallId: id, toolInput: args }, `${suffix}/${id}`)]
}

/** A chat message's content: a string, or the text of its parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((part) => (part && typeof part === 'object' ? (str(part as Data, 'text') ?? str(part as Data, 'refusal') ?? '') : ''))
    .filter((text) => text !== '')
    .join('\n')
}
