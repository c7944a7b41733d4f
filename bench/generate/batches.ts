import type { PlannedSession, Step } from './plan'

/** One unit of work for a writer: start a session, or one step of an already started one. */
export type Op = { kind: 'start'; session: PlannedSession } | { kind: 'step'; sessionIndex: number; step: Step }

export interface Batch {
  ops: Op[]
  /** Message rows this batch writes (appends and compaction summaries). */
  messages: number
}

/**
 * Cut the plan into batches of `size` messages: one transaction each, on both sides. Batches are
 * built before a writer's clock starts, so the time spent generating text is never measured.
 */
export function* toBatches(sessions: Iterable<PlannedSession>, size: number): Generator<Batch> {
  let ops: Op[] = []
  let messages = 0
  for (const session of sessions) {
    ops.push({ kind: 'start', session })
    for (const step of session.steps) {
      ops.push({ kind: 'step', sessionIndex: session.index, step })
      if (step.kind !== 'closeTurn') messages += 1
      if (messages === size) {
        yield { ops, messages }
        ops = []
        messages = 0
      }
    }
  }
  if (ops.length > 0) yield { ops, messages }
}
