// Assistant text and reasoning restated by an event: held until the item they restate shows up.
import type { MessageRecord } from '../records'
import type { Emitter } from './emitter'
import { messageRecord } from './record-builders'

/**
 * Assistant text or reasoning from an `agent_message` / `agent_reasoning` event, or from a
 * paginated rollout's `item_completed`: held until the next line says whether the item it
 * restates follows (see `parser.ts`).
 */
export function holdAgentText(em: Emitter, kind: 'assistant' | 'reasoning', text: string, offset: number, createdAt: number | undefined): void {
  const extra: Partial<MessageRecord> = em.state.model ? { model: em.state.model } : {}
  em.hold(kind, text, messageRecord(offset, kind, text, createdAt, extra))
}
