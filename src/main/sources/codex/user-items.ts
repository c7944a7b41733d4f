// How a user item waiting for its user_message event becomes a prompt or context (used by the emitter).
import type { MessageRecord, SourceRecord } from '../records'

/**
 * One prompt from its item and its event. The text is the event's: the words the user typed, as
 * Codex shows them when it reopens a session (the item is what the model was sent, which may wrap
 * them, e.g. image tags); the item's text only when the event has none (an image alone). The
 * item's place, id and images (inline data; the event may only name local files).
 */
export function mergePrompt(item: MessageRecord, event: MessageRecord): MessageRecord {
  const merged: MessageRecord = { ...item, startsTurn: true }
  if (event.content.trim() !== '') merged.content = event.content
  if (!item.attachments?.length && event.attachments?.length) merged.attachments = event.attachments
  if (merged.createdAt === undefined && event.createdAt !== undefined) merged.createdAt = event.createdAt
  return merged
}

/** A user item that turned out to be context: shown as a system message, starting no turn. */
export function asContext(record: MessageRecord): MessageRecord {
  return { ...record, role: 'system', startsTurn: false }
}

export function isUserMessage(record: SourceRecord): record is MessageRecord {
  return record.kind === 'message' && record.role === 'user'
}

/**
 * Records that may wait behind an undecided user item without deciding it: context, metadata,
 * notes. Anything the model produced (or a compaction) means the item was answered without a
 * user_message event.
 */
export function waitsBehindUserItem(record: SourceRecord): boolean {
  switch (record.kind) {
    case 'message':
      return record.role === 'system'
    case 'session-meta':
    case 'note':
    case 'skipped':
    case 'usage':
      return true
    default:
      return false
  }
}
