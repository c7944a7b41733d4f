import { resolve } from 'node:path'
import type { FileEditRecord, SourceRecord } from '../records'
import type { CheckpointChange } from './shadow-git'

/** A turn's checkpoints: the workspace as it was when the turn began and when it ended. */
export interface TurnCheckpoints {
  from: string | undefined
  to: string | undefined
}

/**
 * Checkpoint commits as each turn's file changes: the difference between the commits of the
 * turn's start and end (`ranges`, one per turn in order). Files the transcript's own edits already
 * journaled in that turn are left to them; the others (changed by a command, say) become file
 * edits, so the turn can be rewound, and a write the transcript could not journal
 * (change-not-captured) is then captured: its report goes. A change that is not text is
 * reported, not journaled.
 */
export function withCheckpointEdits(records: SourceRecord[], ranges: TurnCheckpoints[], repository: CheckpointRepository, cwd: string): { records: SourceRecord[]; problems: string[] } {
  const problems: string[] = []
  const starts = turnStarts(records)
  const inserts = new Map<number, FileEditRecord[]>()
  const captured = new Set<number>()
  starts.forEach((start, turn) => {
    const next = starts[turn + 1]
    const { from, to } = ranges[turn] ?? { from: undefined, to: undefined }
    if (!from || !to || from === to) return
    const changes = repository.changes(from, to)
    if (changes === null) return problems.push(`turn ${turn + 1}: checkpoint ${from} or ${to} is not in ${repository.gitDir}; its changes outside the transcript are not captured`)
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
    const fromCheckpoints = new Set(edits.map((edit) => resolve(cwd, edit.path)))
    records.slice(start.at, end).forEach((record, at) => {
      if (record.kind === 'change-not-captured' && record.path !== null && fromCheckpoints.has(resolve(cwd, record.path))) captured.add(start.at + at)
    })
  })
  const merged: SourceRecord[] = []
  records.forEach((record, at) => {
    merged.push(...(inserts.get(at) ?? []))
    if (!captured.has(at)) merged.push(record)
  })
  merged.push(...(inserts.get(records.length) ?? []))
  return { records: merged, problems }
}

/** Where the checkpoints are, and what changed between two of them (null: one is not there). */
export interface CheckpointRepository {
  gitDir: string
  changes(from: string, to: string): CheckpointChange[] | null
}

export interface TurnStart {
  /** Index in the records. */
  at: number
  offset: number
  time: number | undefined
  /** When the turn's first answer was saved (Roo Code dates every message). */
  answeredAt: number | undefined
}

export function turnStarts(records: SourceRecord[]): TurnStart[] {
  const starts: TurnStart[] = []
  records.forEach((record, at) => {
    if (record.kind !== 'message') return
    if (record.startsTurn) starts.push({ at, offset: record.offset, time: record.createdAt, answeredAt: undefined })
    else if (record.role !== 'user' && record.role !== 'system' && record.role !== 'tool_result') {
      const last = starts.at(-1)
      if (last && last.answeredAt === undefined && record.offset > last.offset) last.answeredAt = record.createdAt
    }
  })
  return starts
}

function textOf(content: Buffer | null): string | null | undefined {
  if (content === null) return null
  const text = content.toString('utf8')
  return Buffer.from(text, 'utf8').equals(content) ? text : undefined
}
