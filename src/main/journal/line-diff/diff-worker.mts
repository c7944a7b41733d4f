/**
 * The diff thread: line diffs, one at a time, off the thread that answers requests (R27). Even
 * bounded (bounds.mts), one diff may take a second; a turn header asks for dozens.
 *
 * Built, this is an entry of its own (electron.vite.config.ts); from source (vitest) Node runs
 * it as it is, stripping the types, so, as for scan-worker.mts, it loads only `.mts` files of
 * erasable TypeScript (./line-diff.mts, ./bounds.mts), npm packages and node:* builtins.
 */
import { parentPort } from 'node:worker_threads'
import { lineDiff } from './line-diff.mts'
import type { DiffAnswer, DiffRequest } from './protocol.ts'

if (!parentPort) throw new Error('diff-worker.mts must run in a worker thread')
const port = parentPort

port.on('message', (request: DiffRequest) => {
  let answer: DiffAnswer
  try {
    answer = { id: request.id, diff: lineDiff(request.oldText, request.newText, { countsOnly: request.countsOnly, bounds: request.bounds }) }
  } catch (error) {
    answer = { id: request.id, error: error instanceof Error ? error.message : String(error) }
  }
  port.postMessage(answer)
})
