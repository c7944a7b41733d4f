// `event_msg` lines: user prompts, held agent messages / reasoning, token counts, notices.
import type { Usage } from '../../../shared/contract'
import type { UsageRecord } from '../records'
import { handleContextCompactedEvent } from './compaction'
import type { Emitter } from './emitter'
import { messageRecord } from './record-builders'
import {
  AgentMessageEventSchema,
  AgentReasoningEventSchema,
  CollabAgentSpawnEndEventSchema,
  MessageEventSchema,
  ThreadNameUpdatedEventSchema,
  TokenCountEventSchema,
  TurnAbortedEventSchema,
  TypedPayloadSchema
} from './schemas'
import { holdAgentText } from './agent-text'
import { handleItemCompleted } from './turn-items'
import { sameTotals, subtractTotals, toTotals, type Totals } from './token-totals'
import { handleUserMessageEvent } from './user-prompts'

/** Events that restate what other lines already record, or UI life-cycle only: no record. */
const IGNORED_EVENTS = new Set([
  'task_started',
  'task_complete',
  'turn_started',
  'turn_complete',
  'exec_command_begin',
  'exec_command_end',
  'exec_command_output_delta',
  'terminal_interaction',
  'patch_apply_begin',
  'patch_apply_end',
  'web_search_begin',
  'web_search_end',
  'mcp_tool_call_begin',
  'mcp_tool_call_end',
  'view_image_tool_call',
  'item_started',
  'agent_message_delta',
  'agent_reasoning_delta',
  'agent_reasoning_raw_content_delta',
  'agent_reasoning_section_break',
  'turn_diff',
  'plan_update',
  'session_configured',
  'background_event',
  'stream_error',
  'entered_review_mode',
  'exited_review_mode',
  'undo_started',
  'undo_completed',
  'shutdown_complete',
  'mcp_startup_update',
  'mcp_startup_complete',
  'deprecation_notice',
  // The other collaboration events restate the collab tool calls' items (spawn_end links the child: below).
  'collab_agent_spawn_begin',
  'collab_agent_interaction_begin',
  'collab_agent_interaction_end',
  'collab_waiting_begin',
  'collab_waiting_end',
  'collab_close_begin',
  'collab_close_end',
  'collab_resume_begin',
  'collab_resume_end'
])

export function handleEvent(em: Emitter, payload: unknown, offset: number, createdAt: number | undefined): void {
  const typed = em.check(TypedPayloadSchema, payload, offset, 'event_msg')
  if (!typed) return
  switch (typed.type) {
    case 'user_message':
      return handleUserMessageEvent(em, payload, offset, createdAt)
    case 'agent_message': {
      const event = em.check(AgentMessageEventSchema, payload, offset, 'event_msg agent_message')
      if (event) holdAgentText(em, 'assistant', event.message, offset, createdAt)
      return
    }
    case 'agent_reasoning':
    case 'agent_reasoning_raw_content': {
      const event = em.check(AgentReasoningEventSchema, payload, offset, `event_msg ${typed.type}`)
      if (event) holdAgentText(em, 'reasoning', event.text, offset, createdAt)
      return
    }
    case 'item_completed':
      return handleItemCompleted(em, payload, offset, createdAt)
    case 'thread_name_updated': {
      const event = em.check(ThreadNameUpdatedEventSchema, payload, offset, 'event_msg thread_name_updated')
      const name = event?.thread_name?.trim()
      if (name) em.emit({ kind: 'session-meta', offset, title: name, titleOrigin: 'custom' })
      return
    }
    case 'collab_agent_spawn_end': {
      const event = em.check(CollabAgentSpawnEndEventSchema, payload, offset, 'event_msg collab_agent_spawn_end')
      if (event?.new_thread_id) em.emit({ kind: 'sub-agent-link', offset, toolCallId: event.call_id, agentId: event.new_thread_id })
      return
    }
    case 'token_count':
      return tokenCountEvent(em, payload, offset, createdAt)
    case 'turn_aborted': {
      const event = em.check(TurnAbortedEventSchema, payload, offset, 'event_msg turn_aborted')
      if (!event) return
      em.emit(messageRecord(offset, 'system', event.reason ? `Turn aborted (${event.reason})` : 'Turn aborted', createdAt))
      return
    }
    case 'context_compacted':
      return handleContextCompactedEvent(em, offset, createdAt)
    case 'error':
    case 'warning': {
      const event = em.check(MessageEventSchema, payload, offset, `event_msg ${typed.type}`)
      if (!event) return
      em.emit(messageRecord(offset, 'system', `${typed.type === 'error' ? 'Error' : 'Warning'}: ${event.message}`, createdAt))
      return
    }
    default:
      if (IGNORED_EVENTS.has(typed.type)) return
      em.unread(offset, `event_msg "${typed.type}"`)
  }
}

function tokenCountEvent(em: Emitter, payload: unknown, offset: number, createdAt: number | undefined): void {
  const event = em.check(TokenCountEventSchema, payload, offset, 'event_msg token_count')
  if (!event?.info) return // null before the first response (rate-limit updates only)
  const totals = toTotals(event.info.total_token_usage)
  const previous = em.state.lastTotals
  if (previous && sameTotals(previous, totals)) return
  em.state.lastTotals = totals
  let last: Totals
  if (event.info.last_token_usage) last = toTotals(event.info.last_token_usage)
  else if (previous && totals.total >= previous.total) last = subtractTotals(totals, previous)
  else last = totals
  const usage: Partial<Usage> = {
    inputTokens: Math.max(0, last.input - last.cached),
    cacheReadTokens: last.cached,
    outputTokens: last.output
  }
  const record: UsageRecord = { kind: 'usage', offset, usage }
  if (createdAt !== undefined) record.createdAt = createdAt
  em.emit(record)
}
