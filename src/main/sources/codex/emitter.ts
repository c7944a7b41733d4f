// Record emission for one line: held events and the user-prompt / compaction de-duplication windows.
import type { z } from 'zod'
import type { SourceRecord } from '../records'
import type { CodexParserState, Held } from './parser-state'
import { describeIssues } from './schemas'

/** Cap on remembered user prompts; the window is cleared by any non-user record anyway. */
const PENDING_USER_MAX = 8

/**
 * Collects the records of the line being fed, keeping the parser state's held events and
 * de-duplication windows up to date (see the notes at the top of `parser.ts`).
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
    if (record.kind === 'message' && record.role !== 'system') {
      if (record.role !== 'user') this.state.pendingUser = []
      this.state.compactionOpen = false
    }
    this.out.push(record)
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

  /** A user prompt seen on one channel: true when it restates one just seen on the other. */
  isUserDuplicate(from: 'item' | 'event', text: string): boolean {
    const other = from === 'item' ? 'event' : 'item'
    const pending = this.state.pendingUser
    let index = pending.findIndex((p) => p.from === other && normalize(p.text) === normalize(text))
    // Codex writes exactly one event per user item; accept a restatement that differs in form.
    if (index === -1) index = pending.findIndex((p) => p.from === other)
    if (index !== -1) {
      pending.splice(index, 1)
      return true
    }
    pending.push({ from, text })
    if (pending.length > PENDING_USER_MAX) pending.splice(0, pending.length - PENDING_USER_MAX)
    return false
  }

  skip(offset: number, reason: string): void {
    this.emit({ kind: 'skipped', offset, reason })
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
