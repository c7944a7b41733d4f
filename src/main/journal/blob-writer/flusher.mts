import type { PrepareFlushesRequest, ServeFlushesRequest, SyncRequest, WriterReply } from '../blob-writer-protocol.ts'
import { failure } from './failure.mts'
import type { FlushHelpers } from './flush-helper.mts'
import { wake } from './wake.mts'

/** A `sync` request: flush the file system holding `path`; the reply carries the program's complaint if it failed. */
export async function syncFileSystem(helpers: FlushHelpers, { id, program, path }: SyncRequest): Promise<WriterReply> {
  try {
    await helpers.for(program).sync(path)
    return { id, ok: true }
  } catch (error) {
    return failure(id, error)
  }
}

/** A `prepare-flushes` request: the helper for `program` started ahead of the flushes. */
export function prepareFlushes(helpers: FlushHelpers, { id, program }: PrepareFlushesRequest): WriterReply {
  try {
    helpers.for(program).start()
    return { id, ok: true }
  } catch (error) {
    return failure(id, error) // the first flush will try again, and report it
  }
}

/**
 * Serve the flushes a rewind's lanes ask for (ServeFlushesRequest), one at a time, without
 * blocking any lane: a lane asks and goes on writing temps. Each flush covers the temps the
 * lanes had written when it was asked (their `covering` counts); once it is done those become
 * `flushed` and the lanes are woken. A failed flush stops every lane.
 */
export async function serveFlushes(helpers: FlushHelpers, request: ServeFlushesRequest): Promise<WriterReply> {
  const { id, layout, program, root, fault } = request
  const shared = new Int32Array(request.shared)
  let served = 0
  for (;;) {
    const asked = Atomics.load(shared, layout.flushAsked)
    // Ended (every lane replied, so none waits for a flush): the main thread cleared `serving`,
    // then bumped `flushAsked`, which is what wakes this loop.
    if (Atomics.load(shared, layout.serving) === 0) return { id, ok: true }
    if (asked > served) {
      served = asked
      try {
        if (fault?.flush === served && fault.code === 'KILL') process.kill(process.pid, 'SIGKILL')
        if (fault?.flush === served) throw Object.assign(new Error(`${fault.code}: injected failure`), { code: fault.code })
        await helpers.for(program).sync(root)
      } catch (error) {
        Atomics.store(shared, layout.stop, 1)
        Atomics.store(shared, layout.flushing, 0)
        wake(shared, layout.events)
        return failure(id, error)
      }
      for (const lane of layout.lanes) Atomics.store(shared, lane.flushed, Atomics.load(shared, lane.covering))
      Atomics.store(shared, layout.flushBatch, Atomics.load(shared, layout.flushBatch) * 2)
      Atomics.store(shared, layout.flushing, 0)
      wake(shared, layout.events)
      continue
    }
    const waited = Atomics.waitAsync(shared, layout.flushAsked, asked)
    if (waited.async) await waited.value
  }
}
