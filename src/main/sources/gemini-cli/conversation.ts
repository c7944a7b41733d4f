import type { SkippedRecord } from '../records'
import { asObject, asString } from './parts'

/** One message as Gemini CLI wrote it (`MessageRecord` of chatRecordingTypes.ts), its last version. */
export type GeminiMessage = Record<string, unknown> & { id: string }

/** What happened in a session file, in file order: a message first seen, or the agent's own rewind. */
export type ConversationEvent =
  | { kind: 'message'; offset: number; message: GeminiMessage }
  | { kind: 'rewind'; offset: number; atUid: string | null; abandonedUid: string }

/** The metadata of `ConversationRecord` (sessionId, projectHash, startTime, summary, kind…). */
export type ConversationMeta = Record<string, unknown>

export interface Conversation {
  meta: ConversationMeta
  events: ConversationEvent[]
  problems: SkippedRecord[]
}

/**
 * Reads a chat recording the way Gemini CLI's own `loadConversationRecord` does, but keeping what
 * it drops: both layouts, the legacy `session-*.json` (one `ConversationRecord`, rewritten whole
 * on every change) and the current `session-*.jsonl` (a metadata line, then appended message
 * lines; a message is appended again whole each time it grows — tool calls, tokens — and the
 * last copy wins; `{"$set": …}` merges metadata, and with `messages` replaces the list;
 * `{"$rewindTo": id}` drops that message and all after it). Where Gemini forgets the dropped
 * messages, this keeps them and records the rewind, so Retrace shows them as a branch.
 */
export function readConversation(text: string): Conversation {
  const legacy = legacyRecord(text)
  const reader = new LineReader()
  if (legacy) {
    reader.meta = metaOf(legacy)
    const messages = Array.isArray(legacy.messages) ? legacy.messages : []
    // The legacy file has no lines: a message's "offset" is its index in `messages`.
    messages.forEach((message, index) => reader.message(message, index))
  } else if (isBrokenLegacyFile(text)) {
    // A pretty-printed legacy file cut short: its lines are not records, one reason says why.
    reader.problems.push({ kind: 'skipped', offset: 0, reason: 'Gemini CLI session file is not valid JSON (cut short?)' })
  } else {
    let offset = 0
    for (const line of text.split('\n')) {
      reader.line(line, offset)
      offset += Buffer.byteLength(line, 'utf8') + 1
    }
  }
  return { meta: reader.meta, events: reader.events, problems: reader.problems }
}

/** The whole file as one JSON object naming its session: the legacy layout (pretty-printed). */
function legacyRecord(text: string): Record<string, unknown> | null {
  if (!text.trimStart().startsWith('{')) return null
  try {
    const parsed = asObject(JSON.parse(text))
    // A one-line JSONL file holds a metadata line only: same shape, read the same way.
    return parsed && typeof parsed.sessionId === 'string' ? parsed : null
  } catch {
    return null
  }
}

/** Starts like a JSON object but its first line is no record: not JSONL, and not whole JSON either. */
function isBrokenLegacyFile(text: string): boolean {
  const first = text.trimStart().split('\n', 1)[0] ?? ''
  if (!first.startsWith('{')) return false
  try {
    JSON.parse(first)
    return false
  } catch {
    return true
  }
}

function metaOf(record: Record<string, unknown>): ConversationMeta {
  const { messages: _messages, ...meta } = record
  return meta
}

class LineReader {
  meta: ConversationMeta = {}
  readonly events: ConversationEvent[] = []
  readonly problems: SkippedRecord[] = []
  /** The ids of the line Gemini CLI would load now, in order. */
  private readonly current: string[] = []
  /** Message id → its event, while the message is on the current line (its later copies update it). */
  private readonly live = new Map<string, { kind: 'message'; message: GeminiMessage }>()

  line(line: string, offset: number): void {
    if (!line.trim()) return
    let record: Record<string, unknown> | null
    try {
      record = asObject(JSON.parse(line))
    } catch {
      this.problems.push({ kind: 'skipped', offset, reason: 'Gemini CLI session line is not JSON (cut short?)' })
      return
    }
    if (!record) return void this.problems.push({ kind: 'skipped', offset, reason: 'Gemini CLI session line is not an object' })
    const rewindTo = asString(record.$rewindTo)
    if (rewindTo !== undefined) return this.rewind(rewindTo, offset)
    if (typeof record.id === 'string') return this.message(record, offset)
    const set = asObject(record.$set)
    if (set) {
      this.meta = { ...this.meta, ...metaOf(set) }
      // A checkpoint of the whole list (updateMessagesFromHistory): known messages take the new
      // version, new ones are added; the display transcript keeps the ones it no longer lists.
      if (Array.isArray(set.messages)) for (const message of set.messages) this.message(message, offset)
      return
    }
    if (typeof record.sessionId === 'string') {
      this.meta = { ...this.meta, ...metaOf(record) }
      if (Array.isArray(record.messages)) for (const message of record.messages) this.message(message, offset)
      return
    }
    this.problems.push({ kind: 'skipped', offset, reason: 'Gemini CLI session line of an unknown kind' })
  }

  message(value: unknown, offset: number): void {
    const record = asObject(value)
    const id = record ? asString(record.id) : undefined
    if (!record || id === undefined) return void this.problems.push({ kind: 'skipped', offset, reason: 'Gemini CLI message without an id' })
    const message = { ...record, id }
    const known = this.live.get(id)
    if (known) {
      known.message = message
      return
    }
    const event = { kind: 'message' as const, offset, message }
    this.events.push(event)
    this.live.set(id, event)
    this.current.push(id)
  }

  /** `rewindTo`: the message and all after it leave the line; an unknown id empties it (as Gemini does). */
  private rewind(to: string, offset: number): void {
    const index = this.current.indexOf(to)
    const from = index === -1 ? 0 : index
    const removed = this.current.splice(from)
    const abandonedUid = removed[0]
    if (abandonedUid === undefined) return
    for (const id of removed) this.live.delete(id)
    this.events.push({ kind: 'rewind', offset, atUid: this.current.at(-1) ?? null, abandonedUid })
  }
}
