// `inter_agent_communication` lines: a message one Codex agent sent another (multi-agent v2).
import type { MessageRecord } from '../records'
import type { Emitter } from './emitter'
import { messageRecord } from './record-builders'
import { InterAgentCommunicationSchema } from './schemas'

/**
 * A message between agents, as the recipient's rollout records it (codex-rs
 * `RolloutItem::InterAgentCommunication { author, recipient, other_recipients, content,
 * trigger_turn, … }`, agents named by path: "/root", "/root/worker"). Codex counts it as a user
 * turn of the recipient (its rollback and turn boundaries do), and writes no `response_item` for
 * it: a child's task from its parent is its prompt. A message from anyone but an agent above the
 * recipient (a child's report to its parent) says who sent it.
 */
export function handleInterAgentCommunication(em: Emitter, payload: unknown, offset: number, createdAt: number | undefined): void {
  const message = em.check(InterAgentCommunicationSchema, payload, offset, 'inter_agent_communication')
  if (!message) return
  const text = message.content.trim() !== '' ? message.content : message.encrypted_content ? '(message encrypted by the provider)' : ''
  const fromAbove = message.recipient.startsWith(`${message.author.replace(/\/$/, '')}/`)
  const extra: Partial<MessageRecord> = { startsTurn: true }
  if (message.id) extra.uid = message.id
  em.emit(messageRecord(offset, 'user', fromAbove ? text : `From ${message.author}:\n\n${text}`, createdAt, extra))
}
