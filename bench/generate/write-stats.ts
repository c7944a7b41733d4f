import { performance } from 'node:perf_hooks'
import type { Batch } from './batches'

/** Writes one batch in one transaction. Both the recorder and the bare reference are one of these. */
export type Commit = (batch: Batch) => void

/** Message rows written and the time spent inside the write transactions (nothing else). */
export interface WriteTally {
  messages: number
  writeMs: number
}

export function emptyTally(): WriteTally {
  return { messages: 0, writeMs: 0 }
}

/** Commit one batch and add its rows and time to each tally given. */
export function timedCommit(commit: Commit, batch: Batch, ...tallies: WriteTally[]): void {
  const start = performance.now()
  commit(batch)
  const elapsed = performance.now() - start
  for (const tally of tallies) {
    tally.messages += batch.messages
    tally.writeMs += elapsed
  }
}
