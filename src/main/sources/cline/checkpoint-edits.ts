import { resolve } from 'node:path'
import type { FileEditRecord, SourceRecord } from '../records'
import { checkpointChanges } from './shadow-git'
import type { UiFacts } from './ui-messages'

/**
 * Cline's checkpoint commits as each turn's file changes: the turn's changes are the difference
 * between the last checkpoint before its prompt and the last one before the next prompt (the last
 * one of all, for the last turn). Files the transcript's own edits already journaled in that turn
 * are left to them; the others (changed by a command, say) become file edits, so the turn can be
 * rewound. A change that is not text is reported, not journaled.
 */
export function withCheckpointEdits(records: SourceRecord[], checkpoints: UiFacts['checkpoints'], gitDir: string, cwd: string): { records: SourceRecord[]; problems: string[] } {
  const problems: string[] = []
  const starts = records.flatMap((record, at) => (record.kind === 'message' && record.startsTurn ? [{ at, offset: record.offset, time: record.createdAt }] : []))
  const inserts = new Map<number, FileEditRecord[]>()
  starts.forEach((start, turn) => {
    const next = starts[turn + 1]
    const from = lastBefore(checkpoints, start.offset, start.time)
    const to = next ? lastBefore(checkpoints, next.offset, next.time) : checkpoints.at(-1)?.hash
    if (!from || !to || from === to) return
    const changes = checkpointChanges(gitDir, from, to)
    if (changes === null) return problems.push(`turn ${turn + 1}: checkpoint ${from} or ${to} is not in ${gitDir}; its changes outside the transcript are not captured`)
    const end = next ? next.at : records.length
    const journaled = new Set(records.slice(start.at, end).flatMap((record) => (record.kind === 'file-edit' ? [resolve(cwd, record.path)] : [])))
    const edits: FileEditRecord[] = []
    for (const change of changes) {
      if (journaled.has(resolve(cwd, change.path))) continue
      const before = textOf(change.before)
      const after = textOf(change.after)
      if (before === undefined || after === undefined) {
        problems.push(`turn ${turn + 1}: ${change.path} changed between checkpoints but is not text; not journaled`)
        continue
      }
      edits.push({ kind: 'file-edit', offset: next ? next.offset : (records.at(-1)?.offset ?? 0), toolCallId: null, path: change.path, before, after })
    }
    if (edits.length > 0) inserts.set(end, edits)
  })
  const merged: SourceRecord[] = []
  records.forEach((record, at) => {
    merged.push(...(inserts.get(at) ?? []), record)
  })
  merged.push(...(inserts.get(records.length) ?? []))
  return { records: merged, problems }
}

/** The last checkpoint taken before the conversation reached message `offset` (by history index, else by time). */
function lastBefore(checkpoints: UiFacts['checkpoints'], offset: number, time: number | undefined): string | undefined {
  let found: string | undefined
  for (const checkpoint of checkpoints) {
    const before = checkpoint.historyIndex !== undefined ? checkpoint.historyIndex < offset : checkpoint.ts !== undefined && time !== undefined && checkpoint.ts < time
    if (before) found = checkpoint.hash
  }
  return found
}

function textOf(content: Buffer | null): string | null | undefined {
  if (content === null) return null
  const text = content.toString('utf8')
  return Buffer.from(text, 'utf8').equals(content) ? text : undefined
}
