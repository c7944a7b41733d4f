import type { Usage } from '../../../shared/contract'
import type { ChangeNotCapturedRecord, MessageRecord, SourceRecord } from '../records'
import type { Conversation, GeminiMessage } from './conversation'
import { fileEditOf, type KnownContents } from './file-edits'
import { fileTools } from './file-tools'
import { asObject, asString, epochOf, partsText } from './parts'

const SHELL = 'run_shell_command'

/**
 * The records of one Gemini CLI session: its metadata, then each message in file order — a user
 * prompt opens a turn; a `gemini` message gives its thoughts (reasoning), its text, and each tool
 * call with its result and the file it changed; `info`/`error`/`warning` lines are system lines —
 * and each of the agent's own rewinds where it happened. Pure.
 */
export function sessionRecords(conversation: Conversation, parent: { sessionId: string; toolCallId?: string | undefined } | null, checkpointed: ReadonlyMap<string, string> = new Map()): SourceRecord[] {
  const { meta } = conversation
  const records: SourceRecord[] = [...conversation.problems]
  const summary = asString(meta.summary)?.trim()
  records.push({
    kind: 'session-meta',
    offset: 0,
    ...(asString(meta.sessionId) ? { sessionId: asString(meta.sessionId) } : {}),
    ...(epochOf(meta.startTime) !== undefined ? { createdAt: epochOf(meta.startTime) } : {}),
    ...(summary ? { title: summary, titleOrigin: 'ai' as const } : {}),
    // A sub-agent hangs below its parent session, at the call that started it when known.
    ...(parent ? { parent: { sessionId: parent.sessionId, kind: 'sub-agent' as const, ...(parent.toolCallId ? { toolCallId: parent.toolCallId } : {}) } } : {})
  })
  const known: KnownContents = new Map()
  for (const event of conversation.events) {
    if (event.kind === 'rewind') records.push({ kind: 'agent-rewind', offset: event.offset, atUid: event.atUid, abandonedUid: event.abandonedUid })
    else records.push(...messageRecords(event.message, event.offset, { known, checkpointed }))
  }
  return records
}

/** What file edits are rebuilt from: the session's own writes, and Gemini's checkpoints (shadow-git.ts). */
interface EditSources {
  known: KnownContents
  checkpointed: ReadonlyMap<string, string>
}

function messageRecords(message: GeminiMessage, offset: number, edits: EditSources): SourceRecord[] {
  const createdAt = epochOf(message.timestamp)
  const base = { kind: 'message' as const, offset, uid: null, parentUid: null, agentId: null, startsTurn: false, ...(createdAt !== undefined ? { createdAt } : {}) }
  const type = asString(message.type)
  if (type === 'user') {
    const text = partsText(message.displayContent ?? message.content).trim()
    // A history checkpoint ($set messages) lists function responses as user turns: no prompt.
    if (!text || isOnlyFunctionResponses(message.content)) return []
    // Slash commands and injected context are not prompts (Gemini's own isIgnoredUserContent).
    const prompt = !/^[/?]|^<session_context>|^<hook_context>/.test(text)
    return [{ ...base, uid: message.id, startsTurn: prompt, role: prompt ? 'user' : 'system', content: text }]
  }
  if (type !== 'gemini') {
    const text = partsText(message.displayContent ?? message.content).trim()
    return text ? [{ ...base, uid: message.id, role: 'system', content: type ? `${type}: ${text}` : text }] : []
  }
  const records: SourceRecord[] = []
  const thoughts = (Array.isArray(message.thoughts) ? message.thoughts : []).map(thoughtText).filter((text) => text !== '')
  if (thoughts.length > 0) records.push({ ...base, role: 'reasoning', content: thoughts.join('\n\n') })
  const text = partsText(message.content).trim()
  if (text) records.push({ ...base, role: 'assistant', content: text })
  for (const value of Array.isArray(message.toolCalls) ? message.toolCalls : []) {
    const call = asObject(value)
    if (call) records.push(...toolCallRecords(call, base, edits))
  }
  const first = records.find((record): record is MessageRecord => record.kind === 'message')
  const model = asString(message.model)
  const usage = usageOf(message.tokens)
  if (first) Object.assign(first, { uid: message.id }, model ? { model } : {}, usage ? { usage } : {})
  else if (usage) records.push({ kind: 'usage', offset, usage, ...(createdAt !== undefined ? { createdAt } : {}) })
  return records
}

type MessageBase = Omit<MessageRecord, 'role' | 'content'>

function toolCallRecords(call: Record<string, unknown>, base: MessageBase, edits: EditSources): SourceRecord[] {
  const name = asString(call.name) ?? 'tool'
  const id = asString(call.id)
  const args = asObject(call.args) ?? {}
  const createdAt = epochOf(call.timestamp) ?? base.createdAt
  const common = { ...base, toolName: name, ...(id ? { toolCallId: id } : {}), ...(createdAt !== undefined ? { createdAt } : {}) }
  const summary = name === SHELL && typeof args.command === 'string' ? args.command : `${name} ${JSON.stringify(args)}`
  const records: SourceRecord[] = [{ ...common, role: 'tool_call', content: summary.length > 2000 ? `${summary.slice(0, 2000)}…` : summary, toolInput: args }]
  const status = asString(call.status)
  const output = partsText(call.result).trim() || (typeof call.resultDisplay === 'string' ? call.resultDisplay : '')
  if (status === 'success' || status === 'error' || status === 'cancelled' || output) {
    records.push({ ...common, role: 'tool_result', content: output || status || '', isError: status === 'error' || status === 'cancelled' })
  }
  const edit = fileEditOf(call, base.offset, edits.known, id === undefined ? undefined : edits.checkpointed.get(id))
  if (edit) records.push(edit)
  else if (status === 'success') records.push(...unrecordedChange(name, args, id ?? null, base.offset))
  if (name === SHELL && status === 'success' && typeof args.command === 'string') records.push({ kind: 'shell-command', offset: base.offset, toolCallId: id ?? null, command: args.command })
  return records
}

function thoughtText(value: unknown): string {
  const thought = asObject(value)
  if (!thought) return ''
  const subject = asString(thought.subject)?.trim()
  const description = asString(thought.description)?.trim()
  return [subject ? `**${subject}**` : '', description ?? ''].filter((part) => part !== '').join('\n')
}

/**
 * Gemini's counts (`TokensSummary`): `input` is the whole prompt, cached part included; `output`
 * (candidates) leaves out `thoughts`. Retrace counts Anthropic's way: input without the cached
 * part, output with the thinking.
 */
function usageOf(value: unknown): Partial<Usage> | undefined {
  const tokens = asObject(value)
  if (!tokens) return undefined
  const count = (key: string): number => (typeof tokens[key] === 'number' && Number.isFinite(tokens[key]) ? Math.max(0, Math.round(tokens[key])) : 0)
  const cached = count('cached')
  return { inputTokens: Math.max(0, count('input') - cached), cacheReadTokens: cached, outputTokens: count('output') + count('thoughts') }
}

function isOnlyFunctionResponses(content: unknown): boolean {
  return Array.isArray(content) && content.length > 0 && content.every((part) => asObject(part)?.functionResponse !== undefined)
}

/**
 * The accounting rule for a successful write the recording cannot give a file edit for:
 * save_memory (memoryTool.ts, until 2026-05) adds the fact to ~/.gemini/GEMINI.md, Gemini's own
 * file outside every workspace, and keeps no diff; a write_file or replace whose arguments lack
 * the path or the content (a cut line) is still reported.
 */
function unrecordedChange(name: string, args: Record<string, unknown>, toolCallId: string | null, offset: number): ChangeNotCapturedRecord[] {
  if (name === 'save_memory') return [{ kind: 'change-not-captured', offset, toolCallId, tool: name, path: '~/.gemini/GEMINI.md', reason: "save_memory adds to Gemini CLI's own memory file, outside the workspace" }]
  if (!fileTools.writes.includes(name)) return []
  const path = asString(args.file_path) ?? null
  return [{ kind: 'change-not-captured', offset, toolCallId, tool: name, path, reason: path === null ? 'the call keeps no file path' : 'the call keeps no content' }]
}
