import type { SessionInput } from './session-input'
import type { TranscriptLine } from './transcripts'

/**
 * Where a session's compaction goes in its display transcript. y-agent replaces the compacted
 * part of the context transcript with a summary line placed before the messages it kept (a
 * manual `/compact` keeps the last exchange); Retrace's context view is the display from its
 * compaction record on, so the record goes before the first kept message: both views then hold
 * the same messages. Checked against the context transcript; a difference is reported.
 */
export function compactionPlace(input: SessionInput, lines: TranscriptLine[]): { summary?: TranscriptLine; position: number; problem?: string } {
  const context = input.context ?? []
  const at = context.findIndex((line) => line.isCompactionSummary)
  const summary = context[at]
  if (!summary) {
    const problem = input.session.compactionCount > 0 && input.context !== null ? `session ${input.session.id} records ${input.session.compactionCount} compaction(s), but its context transcript holds no compaction summary` : undefined
    return { position: lines.length, ...(problem ? { problem } : {}) }
  }
  const kept = context.slice(at + 1)
  const first = kept[0]
  const position = first?.messageId ? lines.findIndex((line) => line.messageId === first.messageId) : lines.length
  if (position === -1) return { summary, position: lines.length, problem: `session ${input.session.id}: the message its context transcript keeps after the compaction summary is not in the display transcript; the summary is placed at the end` }
  const rest = lines.slice(position).map((line) => line.messageId)
  const same = rest.length === kept.length && kept.every((line, i) => line.messageId === rest[i])
  return same ? { summary, position } : { summary, position, problem: `session ${input.session.id}: its context transcript after the compaction summary differs from the display transcript; Retrace's context view shows the display from the summary on` }
}
