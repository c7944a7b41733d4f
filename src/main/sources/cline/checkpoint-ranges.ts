import type { SourceRecord } from '../records'
import { turnStarts, type TurnCheckpoints } from './checkpoint-edits'
import type { UiFacts } from './ui-messages'

/**
 * Cline saves a checkpoint AFTER each tool and at the task's start (`checkpoint_created`,
 * `lastCheckpointHash`): a turn runs from the last checkpoint before its prompt to the last one
 * before the next prompt (the last one of all, for the last turn).
 */
export function clineRanges(records: SourceRecord[], checkpoints: UiFacts['checkpoints']): TurnCheckpoints[] {
  const starts = turnStarts(records)
  return starts.map((start, turn) => {
    const next = starts[turn + 1]
    return { from: lastBefore(checkpoints, start.offset, start.time), to: next ? lastBefore(checkpoints, next.offset, next.time) : checkpoints.at(-1)?.hash }
  })
}

/**
 * Roo Code and Kilo Code save a checkpoint BEFORE the first file-changing tool of an answer
 * (`checkpointSaveAndMark`) and when the user answers (`handleWebviewAskResponse`, its row
 * hidden): the workspace as a turn began is the last checkpoint saved before the turn's first
 * answer was (tools run while the answer streams, and nothing of the turn ran before its first
 * tool), else the repository's first commit (the first checkpoint's `from`). A turn ends where the
 * next one begins; the last turn at the last checkpoint, which misses what its last edits did
 * after it (the transcript's edits tell those).
 */
export function rooRanges(records: SourceRecord[], saved: UiFacts['savedCheckpoints']): TurnCheckpoints[] {
  const starts = turnStarts(records)
  const base = saved[0]?.from
  const beganAt = starts.map((start, turn) => {
    const until = start.answeredAt ?? starts[turn + 1]?.time
    if (until === undefined) return saved.at(-1)?.hash ?? base
    let found = base
    for (const checkpoint of saved) if (checkpoint.ts !== undefined && checkpoint.ts < until) found = checkpoint.hash
    return found
  })
  return beganAt.map((from, turn) => ({ from, to: turn + 1 < beganAt.length ? beganAt[turn + 1] : saved.at(-1)?.hash }))
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
