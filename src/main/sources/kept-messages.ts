import type { ImportDeps } from './import-deps'
import type { FileImportState } from './import-state'
import type { CompactionRecord, MessageRecord, SourceRecord } from './records'
import type { KeptMessage } from '../store/repositories/messages'

/**
 * Reading again a file that no longer holds what was read of it (imported-content.ts `readAgain`):
 * its sessions keep every message, each marked as not in the file, and the new read takes each
 * message it finds there again back (the mark goes) instead of adding it twice. A message is the
 * same when its text, role, tool call, tool input and time are, and its source id (Claude Code's
 * `uuid`) where both have one. What the file holds that no session has is added as usual; what
 * the line that held an imported message did besides (file edits, shell commands, usage, a
 * rewind inside the agent) was done when it was first read, and is not done again.
 */

/** What a line's records do besides its messages: done once, when the line is new. */
const DONE_WITH_THE_LINE = new Set<SourceRecord['kind']>(['file-edit', 'change-not-captured', 'shell-command', 'usage', 'agent-rewind', 'sub-agent-link'])

type Read = MessageRecord | CompactionRecord

export class KeptMessages {
  /** The kept messages not found again yet, by role, tool call and size, oldest first (built when first needed). */
  private waiting: Map<string, KeptMessage[]> | null = null
  private waitingCount = 0
  /** A mark was lifted since `takeChanged` was last asked. */
  private changed = false

  constructor(
    private readonly deps: ImportDeps,
    private readonly state: FileImportState,
    /** The sessions the file's import wrote (imported-content.ts `sessionsOf`). */
    private readonly sessionRowIds: () => number[]
  ) {}

  /**
   * The records of one line (they share its offset) still to apply: its messages no session
   * holds, and the rest unless the line held an imported message. A line without messages
   * (usage, file backups) goes with the last line that had some. Runs inside the chunk's
   * transaction: the marks go with the file's new offset.
   */
  newRecordsOfLine(records: SourceRecord[], file: string): SourceRecord[] {
    const reread = this.state.reread
    if (!reread) return records
    const found = new Set<SourceRecord>()
    const messages = records.filter((record): record is Read => record.kind === 'message' || record.kind === 'compaction')
    if (messages.length > 0) {
      for (const record of messages) if (this.takeBack(record, file)) found.add(record)
      reread.known = found.size > 0
      // Every kept message found again, and the file goes on with new lines: an import as any other.
      if (!reread.known && this.waitingCount === 0) this.state.reread = null
    }
    return records.filter((record) => !found.has(record) && !(reread.known && DONE_WITH_THE_LINE.has(record.kind)))
  }

  /** Whether marks were lifted since the last call (the window is told once per chunk). */
  takeChanged(): boolean {
    const changed = this.changed
    this.changed = false
    return changed
  }

  /** Take a kept message back if the file holds it here: true when one was. */
  private takeBack(record: Read, file: string): boolean {
    const role = record.kind === 'compaction' ? 'compaction_summary' : record.role
    const content = record.kind === 'compaction' ? record.summary : record.content
    const toolCallId = record.kind === 'message' ? (record.toolCallId ?? null) : null
    const candidates = this.waitingMessages().get(keyOf(role, toolCallId, Buffer.byteLength(content, 'utf8')))
    const index = candidates?.findIndex((kept) => this.same(kept, record, content)) ?? -1
    const kept = index === -1 ? undefined : candidates?.splice(index, 1)[0]
    if (!kept) return false
    this.waitingCount -= 1
    this.changed = true
    this.deps.store.messages.markInFile(kept.id, file, record.offset)
    return true
  }

  private same(kept: KeptMessage, record: Read, content: string): boolean {
    // A compaction stored no source id before it was kept in the file's terms: its summary says enough.
    if (record.kind === 'message' && record.uid !== null && kept.sourceUid !== null && record.uid !== kept.sourceUid) return false
    if (record.createdAt !== undefined && kept.createdAt !== record.createdAt) return false
    const stored = this.deps.store.messages.keptContent(kept.id)
    if (!stored || stored.content !== content) return false
    if (record.kind === 'compaction') return true
    return stored.toolName === (record.toolName ?? null) && stored.toolInput === (record.toolInput === undefined || record.toolInput === null ? null : JSON.stringify(record.toolInput))
  }

  private waitingMessages(): Map<string, KeptMessage[]> {
    if (this.waiting) return this.waiting
    const waiting = new Map<string, KeptMessage[]>()
    for (const rowId of this.sessionRowIds()) {
      for (const kept of this.deps.store.messages.kept(rowId)) {
        const key = keyOf(kept.role, kept.toolCallId, kept.bytes)
        const list = waiting.get(key)
        if (list) list.push(kept)
        else waiting.set(key, [kept])
        this.waitingCount += 1
      }
    }
    this.waiting = waiting
    return waiting
  }
}

function keyOf(role: string, toolCallId: string | null, bytes: number): string {
  return `${role}\0${toolCallId ?? ''}\0${bytes}`
}
