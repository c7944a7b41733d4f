import type { Conversation } from './conversation'

/** The Codex CLI version whose line shapes these copy (fixtures/codex/codemie, 0.125.0). */
export const CODEX_LINE_VERSION = '0.125.0'

interface RolloutContext {
  threadId: string
  cwd: string
  now: number
}

/**
 * A Codex rollout holding the conversation: a `session_meta` line (id, timestamp, cwd,
 * originator, cli_version, source `cli` so `codex resume` lists it), then per prompt the user
 * `message` response item and the `user_message` event Codex writes beside it (a turn), a reply
 * as an assistant `message` item, and a tool call as a `function_call` (JSON arguments) or, when
 * its input was free text (apply_patch), a `custom_tool_call`, each followed by its output item.
 */
export function codexLines(conversation: Conversation, context: RolloutContext): string[] {
  const lines: string[] = []
  let clock = 0
  const at = (createdAt: number | null) => new Date((clock = Math.max(clock, createdAt ?? context.now))).toISOString()
  const started = new Date(context.now).toISOString()
  lines.push(
    JSON.stringify({
      timestamp: started,
      type: 'session_meta',
      payload: { id: context.threadId, timestamp: started, cwd: context.cwd, originator: 'retrace', cli_version: CODEX_LINE_VERSION, source: 'cli', model_provider: 'openai' }
    })
  )
  const item = (timestamp: string, payload: Record<string, unknown>) => lines.push(JSON.stringify({ timestamp, type: 'response_item', payload }))
  const event = (timestamp: string, payload: Record<string, unknown>) => lines.push(JSON.stringify({ timestamp, type: 'event_msg', payload }))
  for (const entry of conversation.items) {
    const timestamp = at(entry.createdAt)
    if (entry.kind === 'user') {
      item(timestamp, { type: 'message', role: 'user', content: [{ type: 'input_text', text: entry.text }] })
      event(timestamp, { type: 'user_message', message: entry.text, images: [], local_images: [], text_elements: [] })
    } else if (entry.kind === 'assistant') {
      item(timestamp, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: entry.text }] })
    } else if (typeof entry.input === 'string') {
      item(timestamp, { type: 'custom_tool_call', status: 'completed', call_id: entry.callId, name: entry.name, input: entry.input })
      item(timestamp, { type: 'custom_tool_call_output', call_id: entry.callId, output: entry.output })
    } else {
      item(timestamp, { type: 'function_call', name: entry.name, arguments: JSON.stringify(entry.input), call_id: entry.callId })
      item(timestamp, { type: 'function_call_output', call_id: entry.callId, output: entry.output })
    }
  }
  return lines
}
