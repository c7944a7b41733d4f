import type { SessionWriter } from '../../src/main/transcripts/session-writer'
import { Recorder } from '../../src/main/transcripts/recorder'
import type { Store } from '../../src/main/store/store'
import type { Op } from './batches'
import type { Commit } from './write-stats'

/**
 * Writes the plan through the public recorder API, one `recorder.batch` per batch: the way a
 * native agent integration (or an importer) fills the store.
 */
export function recorderCommit(store: Store, workspaceId: number): Commit {
  const recorder = new Recorder(store)
  const writers = new Map<number, SessionWriter>()
  const apply = (op: Op): void => {
    if (op.kind === 'start') {
      const { session } = op
      writers.set(session.index, recorder.startSession({ workspaceId, title: session.title, createdAt: session.createdAt }))
      return
    }
    const writer = writers.get(op.sessionIndex)
    if (!writer) throw new Error(`session ${op.sessionIndex} was not started`)
    const { step } = op
    if (step.kind === 'append') writer.append(step.message)
    else if (step.kind === 'closeTurn') writer.closeTurn()
    else writer.compact(step.summary, { createdAt: step.createdAt })
  }
  return (batch) => recorder.batch(() => batch.ops.forEach(apply))
}
