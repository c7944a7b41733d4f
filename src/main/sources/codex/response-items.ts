// `response_item` lines: dispatch by payload type, and the message and reasoning items.
import type { MessageRecord } from '../records'
import { handleCompactionItem } from './compaction'
import { flattenContent } from './content'
import type { Emitter } from './emitter'
import { messageRecord } from './record-builders'
import { GhostSnapshotSchema, MessageItemSchema, ReasoningItemSchema, TypedPayloadSchema } from './schemas'
import {
  handleCustomToolCall,
  handleFunctionCall,
  handleLocalShellCall,
  handleToolOutput,
  handleWebSearchCall
} from './tool-call-items'
import { handleUserItem } from './user-prompts'

const ENCRYPTED_REASONING = '(reasoning encrypted by the provider)'
const EMPTY_REASONING = '(reasoning without text)'

export function handleResponseItem(em: Emitter, payload: unknown, offset: number, createdAt: number | undefined): void {
  const typed = em.check(TypedPayloadSchema, payload, offset, 'response_item')
  if (!typed) return
  switch (typed.type) {
    case 'message':
      return messageItem(em, payload, offset, createdAt)
    case 'reasoning':
      return reasoningItem(em, payload, offset, createdAt)
    case 'function_call':
      return handleFunctionCall(em, payload, offset, createdAt)
    case 'custom_tool_call':
      return handleCustomToolCall(em, payload, offset, createdAt)
    case 'function_call_output':
    case 'custom_tool_call_output':
      return handleToolOutput(em, typed.type, payload, offset, createdAt)
    case 'local_shell_call':
      return handleLocalShellCall(em, payload, offset, createdAt)
    case 'web_search_call':
      return handleWebSearchCall(em, payload, offset, createdAt)
    case 'ghost_snapshot': {
      const ghost = em.check(GhostSnapshotSchema, payload, offset, 'response_item ghost_snapshot')
      if (ghost) em.emit({ kind: 'note', offset, text: `ghost snapshot ${ghost.ghost_commit.id} (Codex /undo anchor)` })
      return
    }
    case 'compaction':
    case 'compaction_summary':
      return handleCompactionItem(em, offset, createdAt)
    default:
      em.unread(offset, `response_item "${typed.type}"`)
  }
}

function messageItem(em: Emitter, payload: unknown, offset: number, createdAt: number | undefined): void {
  const item = em.check(MessageItemSchema, payload, offset, 'response_item message')
  if (!item) return
  const { texts, attachments } = flattenContent(item.content)
  const text = texts.join('\n')
  const extra: Partial<MessageRecord> = {}
  if (item.id) extra.uid = item.id
  if (attachments.length > 0) extra.attachments = attachments
  switch (item.role) {
    case 'user':
      return handleUserItem(em, texts, offset, createdAt, extra)
    case 'assistant':
      // Positional: the agent_message event right before an assistant item is its copy.
      em.takeHeld('assistant', null)
      if (em.state.model) extra.model = em.state.model
      em.emit(messageRecord(offset, 'assistant', text, createdAt, extra))
      return
    case 'developer':
    case 'system':
      em.emit(messageRecord(offset, 'system', text, createdAt, extra))
      return
    default:
      em.unread(offset, `response_item message of role "${item.role}"`)
  }
}

function reasoningItem(em: Emitter, payload: unknown, offset: number, createdAt: number | undefined): void {
  const item = em.check(ReasoningItemSchema, payload, offset, 'response_item reasoning')
  if (!item) return
  const summary = (item.summary ?? []).map((part) => part.text ?? '').filter((t) => t.trim() !== '')
  const raw = (item.content ?? []).map((part) => part.text ?? '').filter((t) => t.trim() !== '')
  em.takeHeld('reasoning', [...summary, ...raw])
  const texts = summary.length > 0 ? summary : raw
  const content = texts.length > 0 ? texts.join('\n\n') : item.encrypted_content ? ENCRYPTED_REASONING : EMPTY_REASONING
  const extra: Partial<MessageRecord> = {}
  if (item.id) extra.uid = item.id
  if (em.state.model) extra.model = em.state.model
  em.emit(messageRecord(offset, 'reasoning', content, createdAt, extra))
}
