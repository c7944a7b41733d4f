import type { MessageRecord, SourceRecord } from '../records'
import { editRecords, pendingEdit } from './edits'
import { copilotFileTools } from './file-tools'
import type { ParserState } from './parser-state'

// The conversation events of `events.jsonl` as records: prompts, answers, reasoning, tool calls
// and their results (paired by `toolCallId`), and the file changes of successful file tools.

export type Data = Record<string, unknown>

/** One event line, as far as the records need it. */
export interface CopilotEvent {
  type: string
  id: string | null
  data: Data
  createdAt: number | undefined
  /** The sub-agent the event belongs to: its `agentId`, or (before 1.0.4x) the `task` call it runs under. */
  agent: string | null
  offset: number
}

export function str(data: Data, key: string): string | undefined {
  const value = data[key]
  return typeof value === 'string' ? value : undefined
}

export function message(event: CopilotEvent, role: MessageRecord['role'], content: string, extra: Partial<MessageRecord> = {}, uidSuffix = ''): MessageRecord {
  return {
    kind: 'message',
    offset: event.offset,
    uid: event.id === null ? null : event.id + uidSuffix,
    parentUid: null,
    agentId: event.agent,
    startsTurn: false,
    role,
    content,
    ...(event.createdAt !== undefined ? { createdAt: event.createdAt } : {}),
    ...extra
  }
}

export function userMessage(event: CopilotEvent, state: ParserState): SourceRecord[] {
  const content = str(event.data, 'content') ?? ''
  const records: SourceRecord[] = [message(event, 'user', content, { startsTurn: true })]
  if (!state.titled && event.agent === null && content.trim() !== '') {
    state.titled = true
    records.unshift({ kind: 'session-meta', offset: event.offset, title: content, titleOrigin: 'first-prompt' })
  }
  return records
}

export function assistantMessage(event: CopilotEvent, state: ParserState): SourceRecord[] {
  const { data } = event
  const records: SourceRecord[] = []
  const model = str(data, 'model') ?? state.model ?? undefined
  const reasoning = str(data, 'reasoningText')
  if (reasoning && !state.reasoningSeen) records.push(message(event, 'reasoning', reasoning, {}, '/reasoning'))
  state.reasoningSeen = false
  const outputTokens = typeof data.outputTokens === 'number' && data.outputTokens > 0 ? Math.round(data.outputTokens) : 0
  state.counted.outputTokens += outputTokens
  const usage = outputTokens > 0 ? { usage: { outputTokens } } : {}
  const content = str(data, 'content') ?? ''
  // The tokens go on the message shown: the text, else the first tool call (a usage record
  // would go to the main session even for a sub-agent's message).
  let unplaced: Partial<MessageRecord> = usage
  if (content.trim() !== '') {
    records.push(message(event, 'assistant', content, { ...(model ? { model } : {}), ...usage }))
    unplaced = {}
  }
  const requests = Array.isArray(data.toolRequests) ? (data.toolRequests as unknown[]) : []
  for (const request of requests) {
    if (!request || typeof request !== 'object') continue
    const r = request as Data
    const id = str(r, 'toolCallId')
    const name = str(r, 'name')
    if (!id || !name) continue
    const calls = toolCall(event, state, id, name, r.arguments, str(r, 'intentionSummary'))
    const first = calls[0]
    if (first?.kind === 'message' && 'usage' in unplaced) {
      Object.assign(first, unplaced, model ? { model } : {})
      unplaced = {}
    }
    records.push(...calls)
  }
  if ('usage' in unplaced && event.agent === null) records.push({ kind: 'usage', offset: event.offset, usage: { outputTokens } })
  else if ('usage' in unplaced) state.counted.outputTokens -= outputTokens // session.shutdown counts it then
  return records
}

/** A tool call, from the assistant's request or (a tool the user ran) from `tool.execution_start`. */
export function toolCall(event: CopilotEvent, state: ParserState, id: string, name: string, args: unknown, summary?: string): SourceRecord[] {
  if (state.calls[id] !== undefined) return []
  state.calls[id] = name
  const content = summary ?? (typeof args === 'string' ? args : JSON.stringify(args ?? {}))
  const records: SourceRecord[] = [message(event, 'tool_call', content, { toolName: name, toolCallId: id, toolInput: args ?? {} }, `/${id}`)]
  const prompt = name === 'task' && args && typeof args === 'object' ? str(args as Data, 'prompt') : undefined
  if (prompt) state.taskPrompts[id] = prompt
  const edit = pendingEdit(name, args)
  if (edit) state.edits[id] = edit
  else if (copilotFileTools.writes.includes(name)) state.callInputs[id] = args && typeof args === 'object' ? (args as Data) : {}
  const command = args && typeof args === 'object' ? str(args as Data, 'command') : undefined
  if ((name === 'bash' || name === 'powershell') && command) records.push({ kind: 'shell-command', offset: event.offset, toolCallId: id, command })
  return records
}

/** A write tool's call that carries no content to journal; `str_replace_editor view` only reads. */
function writesWithoutContent(name: string, input: Data | undefined): boolean {
  if (!copilotFileTools.writes.includes(name)) return false
  return !(name === 'str_replace_editor' && str(input ?? {}, 'command') === 'view')
}

export function toolResult(event: CopilotEvent, state: ParserState, cwd: string | null): SourceRecord[] {
  const { data } = event
  const id = str(data, 'toolCallId')
  if (!id) return [{ kind: 'skipped', offset: event.offset, reason: 'tool.execution_complete without a toolCallId' }]
  const result = (data.result ?? {}) as Data
  const error = (data.error ?? {}) as Data
  const success = data.success !== false
  const content = success ? (str(result, 'content') ?? str(result, 'detailedContent') ?? '') : (str(error, 'message') ?? str(result, 'content') ?? 'failed')
  const name = state.calls[id]
  const records: SourceRecord[] = [message(event, 'tool_result', content, { toolCallId: id, isError: !success, ...(name ? { toolName: name } : {}) })]
  const edit = state.edits[id]
  if (edit && success) records.push(...editRecords(edit, event.offset, id, str(result, 'detailedContent'), cwd))
  else if (success && name !== undefined && writesWithoutContent(name, state.callInputs[id])) {
    // `str_replace_editor insert` / `undo_edit`, a call without the content it writes: reported, never dropped.
    const path = str(state.callInputs[id] ?? {}, 'path') ?? null
    records.push({ kind: 'change-not-captured', offset: event.offset, toolCallId: id, tool: name, path, reason: 'its call gives no content Retrace can journal' })
  }
  delete state.callInputs[id]
  delete state.edits[id]
  delete state.calls[id]
  return records
}
