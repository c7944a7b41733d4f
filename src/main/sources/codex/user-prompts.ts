// User-role lines: which of them are the user's prompts (a turn each) and which are context.
import type { Attachment, MessageRecord, SourceRecord } from '../records'
import { imageAttachment, isContextualText, isContextualUserMessage } from './content'
import type { Emitter } from './emitter'
import { messageRecord } from './record-builders'
import { UserMessageEventSchema } from './schemas'

/**
 * A user `message` item (`texts`: its text parts). Context marked as such (AGENTS.md,
 * environment…) is a system message at once; any other item waits for the line after it, which
 * says whether it is a prompt (see `parser.ts`).
 */
export function handleUserItem(em: Emitter, texts: string[], offset: number, createdAt: number | undefined, extra: Partial<MessageRecord>): void {
  const text = texts.join('\n')
  if (isContextualUserMessage(texts)) {
    em.emit(messageRecord(offset, 'system', text, createdAt, extra))
    return
  }
  em.deferUserItem(messageRecord(offset, 'user', text, createdAt, { ...extra, startsTurn: true }))
}

/** A `user_message` event: a prompt, unless a `kind` or a marker says it is context. */
export function handleUserMessageEvent(em: Emitter, payload: unknown, offset: number, createdAt: number | undefined): void {
  const event = em.check(UserMessageEventSchema, payload, offset, 'event_msg user_message')
  if (!event) return
  // Some releases wrote an event for context items too, tagged with a kind.
  if ((event.kind && event.kind !== 'plain') || isContextualText(event.message)) {
    em.contextEvent()
    return
  }
  const attachments: Attachment[] = [
    ...(event.images ?? []).map(imageAttachment),
    ...(event.local_images ?? []).flatMap((image) => {
      const path = typeof image === 'string' ? image : image && typeof image === 'object' ? (image as Record<string, unknown>).path : null
      return typeof path === 'string' ? [imageAttachment(path)] : []
    })
  ]
  const extra: Partial<MessageRecord> = { startsTurn: true }
  if (attachments.length > 0) extra.attachments = attachments
  em.promptEvent(messageRecord(offset, 'user', event.message, createdAt, extra))
}

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
