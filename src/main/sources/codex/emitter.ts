// Record emission for one line: held events, deferred user items and the compaction de-duplication window.
import type { z } from 'zod'
import type { MessageRecord, SourceRecord } from '../records'
import type { CodexParserState, Held } from './parser-state'
import { describeIssues } from './schemas'
import { requestOfIdePrompt, titleOfRequest } from './ide-preamble'
import { asContext, isUserMessage, mergePrompt, waitsBehindUserItem } from './user-items'

/**
 * Cap on the records held back behind undecided user items in a file that has shown no
 * `user_message` event yet: past it, the items are taken as prompts (markers already said they
 * are not context), so the state stays small.
 */
const DEFERRED_MAX = 32

/**
 * Collects the records of the line being fed, keeping the parser state's held events, deferred
 * user items and de-duplication windows up to date (see the notes at the top of `parser.ts`).
 */
export class Emitter {
  private out: SourceRecord[] = []

  constructor(readonly state: CodexParserState) {}

  /** The records collected since the last call. */
  take(): SourceRecord[] {
    const out = this.out
    this.out = []
    return out
  }

  emit(...records: SourceRecord[]): void {
    if (records.length === 0) return
    this.releaseHeld()
    for (const record of records) this.push(record)
  }

  private push(record: SourceRecord): void {
    const deferred = this.state.deferred
    if (deferred) {
      if (!this.state.userEvents && waitsBehindUserItem(record) && deferred.length < DEFERRED_MAX) {
        deferred.push(record)
        return
      }
      // The waiting user items got no user_message event: context in a file that writes those
      // events; in one that has shown none (yet), prompts, the model now answering them.
      this.settleDeferred(!this.state.userEvents)
    }
    this.write(record)
  }

  private write(record: SourceRecord): void {
    if (record.kind === 'message' && record.role !== 'system') {
      this.state.promptEvent = null
      this.state.compactionOpen = false
    }
    this.out.push(record)
    if (record.kind === 'message' && record.role === 'user' && record.startsTurn && !this.state.prompted) {
      this.state.prompted = true
      // The extension's preamble is no title: the request under it is (the prompt stays whole).
      const request = requestOfIdePrompt(record.content)
      if (request !== null) this.out.push({ kind: 'session-meta', offset: record.offset, title: titleOfRequest(request), titleOrigin: 'first-prompt' })
    }
  }

  /** Writes the deferred records, their user items as prompts or as context; `keepLast`: the last one is a prompt. */
  private settleDeferred(asPrompts: boolean, keepLast = false): void {
    const deferred = this.state.deferred ?? []
    this.state.deferred = null
    deferred.forEach((record, index) => {
      const prompt = asPrompts || (keepLast && index === deferred.length - 1)
      this.write(!prompt && isUserMessage(record) ? asContext(record) : record)
    })
  }

  /**
   * A user `message` item not marked as context (`record`: as a prompt): held back until the
   * next record-producing line tells whether the user_message event of a prompt follows it.
   */
  deferUserItem(record: MessageRecord): void {
    const restated = this.state.promptEvent
    if (restated !== null && normalize(restated) === normalize(record.content)) {
      // Event first, then its item (no known release writes this order, but it costs nothing).
      this.state.promptEvent = null
      return
    }
    this.releaseHeld()
    this.state.compactionOpen = false
    const deferred = this.state.deferred
    if (deferred && (this.state.userEvents || deferred.length >= DEFERRED_MAX)) this.settleDeferred(!this.state.userEvents)
    ;(this.state.deferred ??= []).push(record)
  }

  /**
   * A user_message event of a prompt (`record`, built from the event). Codex writes the prompt's
   * item on the line before its event: when the last record held back is a user item, the two
   * are one prompt, merged; every other waiting user item is context.
   */
  promptEvent(record: MessageRecord): void {
    // Held events first: they belong to what came before, read as it was.
    this.releaseHeld()
    this.state.userEvents = true
    const deferred = this.state.deferred
    const last = deferred?.[deferred.length - 1]
    if (deferred && last && isUserMessage(last)) {
      deferred[deferred.length - 1] = mergePrompt(last, record)
      this.settleDeferred(false, true)
      return
    }
    if (deferred) this.settleDeferred(false)
    this.write(record)
    this.state.promptEvent = record.content
  }

  /** A user_message event of context (a `kind` other than plain, or a context marker): the item before it is context too. */
  contextEvent(): void {
    if (this.state.deferred) this.releaseHeld()
    this.state.userEvents = true
    if (this.state.deferred) this.settleDeferred(false)
  }

  private releaseHeld(): void {
    const held = this.state.held
    if (!held) return
    this.state.held = null
    for (const record of held.records) this.push(record)
  }

  hold(kind: Held['kind'], text: string, record: SourceRecord): void {
    const held = this.state.held
    if (held && held.kind === kind && kind === 'reasoning') {
      held.texts.push(text)
      held.records.push(record)
      return
    }
    this.releaseHeld()
    this.state.held = { kind, texts: [text], records: [record] }
  }

  /**
   * Drops the held event(s) when this line restates them (`texts`; null: any line of that kind
   * does); true when it did.
   */
  takeHeld(kind: Held['kind'], texts: string[] | null): boolean {
    const held = this.state.held
    if (!held || held.kind !== kind) return false
    if (texts === null) {
      this.state.held = null
      return true
    }
    const have = new Set(texts.map(normalize))
    const joined = normalize(texts.join('\n'))
    const matches =
      held.texts.every((text) => have.has(normalize(text))) ||
      normalize(held.texts.join('\n')) === joined ||
      normalize(held.texts.join('\n\n')) === joined
    if (!matches) return false
    this.state.held = null
    return true
  }

  skip(offset: number, reason: string): void {
    this.emit({ kind: 'skipped', offset, reason })
  }

  /** A well-formed record of a kind the importer does not read: counted, not imported (records.ts). */
  unread(offset: number, what: string): void {
    this.emit({ kind: 'unread', offset, what, agentVersion: this.state.cliVersion })
  }

  /** The payload as the schema reads it, or null after emitting a skipped record saying why not. */
  check<T>(schema: z.ZodType<T>, payload: unknown, offset: number, what: string): T | null {
    const parsed = schema.safeParse(payload)
    if (parsed.success) return parsed.data
    this.skip(offset, `${what}: ${describeIssues(parsed.error)}`)
    return null
  }
}

function normalize(text: string): string {
  return text.replace(/\r\n/g, '\n').trim()
}
