// User-role lines: which of them are the user's prompts (a turn each) and which are context.
import type { Attachment, MessageRecord } from '../records'
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
  if (event) userPrompt(em, event, offset, createdAt)
}

/** What a `user_message` event says (a paginated rollout's `UserMessage` item, restated as one). */
export interface UserPrompt {
  message: string
  kind?: string | null | undefined
  images?: string[] | null | undefined
  local_images?: unknown[] | null | undefined
}

/** The prompt of a `user_message` event, or of an `item_completed` UserMessage in a paginated rollout. */
export function userPrompt(em: Emitter, event: UserPrompt, offset: number, createdAt: number | undefined): void {
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
