// `item_completed` events: what a paginated rollout records instead of the older UI events.
import { holdAgentText } from './agent-text'
import { handleContextCompactedEvent } from './compaction'
import type { Emitter } from './emitter'
import {
  AgentMessageTurnItemSchema,
  CollabAgentToolCallTurnItemSchema,
  ItemCompletedEventSchema,
  ReasoningTurnItemSchema,
  UserMessageTurnItemSchema
} from './schemas'
import { userPrompt } from './user-prompts'

/**
 * Turn items whose facts the transcript already has from the rollout's `response_item` lines (tool
 * calls and their outputs, the plan text of a `<proposed_plan>` reply, a hook's prompt) or that are
 * UI life-cycle only: no record, as their older events had none.
 */
const RESTATED_ITEMS = new Set([
  'HookPrompt',
  'Plan',
  'CommandExecution',
  'DynamicToolCall',
  'SubAgentActivity',
  'WebSearch',
  'ImageView',
  'Sleep',
  'FileChange',
  'McpToolCall',
  'EnteredReviewMode',
  'ExitedReviewMode'
])

/**
 * An `item_completed` event (codex-rs `ItemCompletedEvent { thread_id, turn_id, item: TurnItem,
 * completed_at_ms }`). A "paginated" rollout (`session_meta.history_mode`) persists these instead
 * of the `user_message`, `agent_message` and `agent_reasoning` events a "legacy" one has, at the
 * place those events would be (codex-rs rollout `policy.rs`; the events are what Codex derives
 * from the item, `TurnItem::as_legacy_events`). So each item is read as its events: the same
 * transcript either way. A legacy rollout persists only Plan and Sleep items, which restate
 * other lines; its prompts and replies come from its events, never twice.
 */
export function handleItemCompleted(em: Emitter, payload: unknown, offset: number, createdAt: number | undefined): void {
  const event = em.check(ItemCompletedEventSchema, payload, offset, 'event_msg item_completed')
  if (!event) return
  const item = event.item
  const what = `event_msg item_completed ${item.type}`
  if (item.type === 'CollabAgentToolCall') return linkSpawnedAgents(em, item, offset, what)
  if (RESTATED_ITEMS.has(item.type)) return
  const paginated = em.state.historyMode === 'paginated'
  switch (item.type) {
    case 'UserMessage': {
      const message = em.check(UserMessageTurnItemSchema, item, offset, what)
      if (!message || !paginated) return
      // `UserMessageItem::as_legacy_event`: the text parts joined, the images and local images.
      const parts = message.content
      userPrompt(
        em,
        {
          message: parts.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join(''),
          images: parts.flatMap((part) => (part.type === 'image' && part.image_url ? [part.image_url] : [])),
          local_images: parts.flatMap((part) => (part.type === 'local_image' && part.path ? [part.path] : []))
        },
        offset,
        createdAt
      )
      return
    }
    case 'AgentMessage': {
      const message = em.check(AgentMessageTurnItemSchema, item, offset, what)
      if (!message || !paginated) return
      for (const part of message.content) if (part.type === 'Text' && part.text !== undefined) holdAgentText(em, 'assistant', part.text, offset, createdAt)
      return
    }
    case 'Reasoning': {
      // The summaries, as Codex shows reasoning by default (`show_raw_agent_reasoning` off).
      const reasoning = em.check(ReasoningTurnItemSchema, item, offset, what)
      if (!reasoning || !paginated) return
      for (const text of reasoning.summary_text) holdAgentText(em, 'reasoning', text, offset, createdAt)
      return
    }
    case 'ContextCompaction':
      if (paginated) handleContextCompactedEvent(em, offset, createdAt)
      return
    default:
      // ImageGeneration (its older event is not read either) and item types newer than this reader.
      em.unread(offset, what)
  }
}

/** A collaboration tool call that spawned agents: the child threads it started, linked to the call (its `id`). */
function linkSpawnedAgents(em: Emitter, payload: unknown, offset: number, what: string): void {
  const call = em.check(CollabAgentToolCallTurnItemSchema, payload, offset, what)
  if (!call || call.tool !== 'spawnAgent') return
  em.emit(...(call.receiverThreadIds ?? []).map((agentId) => ({ kind: 'sub-agent-link' as const, offset, toolCallId: call.id, agentId })))
}
