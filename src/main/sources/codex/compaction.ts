// Compaction lines (`compacted` line, `compaction` item, `context_compacted` event): one record per group.
import type { Emitter } from './emitter'
import { compactionRecord } from './record-builders'
import { CompactedSchema } from './schemas'

const COMPACTION_WITHOUT_SUMMARY = '(context compacted; Codex recorded no summary)'
const REMOTE_COMPACTION = '(context compacted by the provider; the summary is encrypted)'

/** A top-level `compacted{message}` line: the summary, empty on remote compaction. */
export function handleCompactedLine(em: Emitter, payload: unknown, offset: number, createdAt: number | undefined): void {
  const item = em.check(CompactedSchema, payload, offset, 'compacted')
  if (!item) return
  const summary = item.message.trim() ? item.message : REMOTE_COMPACTION
  emitCompaction(em, summary, offset, createdAt)
}

/** A `compaction` / `compaction_summary` response item: remote compaction, encrypted. */
export function handleCompactionItem(em: Emitter, offset: number, createdAt: number | undefined): void {
  emitCompaction(em, REMOTE_COMPACTION, offset, createdAt)
}

/** A `context_compacted` event (no summary): held, giving way to a compaction line right after it. */
export function handleContextCompactedEvent(em: Emitter, offset: number, createdAt: number | undefined): void {
  if (em.state.compactionOpen) return
  em.hold('compaction', '', compactionRecord(offset, COMPACTION_WITHOUT_SUMMARY, createdAt))
}

function emitCompaction(em: Emitter, summary: string, offset: number, createdAt: number | undefined): void {
  em.takeHeld('compaction', null)
  if (em.state.compactionOpen) return
  em.emit(compactionRecord(offset, summary, createdAt))
  em.state.compactionOpen = true
}
