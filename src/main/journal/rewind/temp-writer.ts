import type { BlobStore } from '../blob-store'
import type { FsOps, WorkspaceFs } from '../workspace-fs'
import { plannedTemp, prepareTemp, type Step } from './steps'

export interface TempWriterContext {
  fs: WorkspaceFs
  blobs: BlobStore
  ops: FsOps
}

/** Temp files being written at once, each fsynced: more in flight lets the file system commit several fsyncs together. */
const CONCURRENCY = 16

/**
 * Writes the new content of the write steps the main thread runs to their temp files (each
 * fsynced), ahead of the steps, which rename them into place in order. Nothing at any target
 * path changes here. A temp that cannot be prepared (its folder appears only after an earlier
 * step, say) is left to its step, which writes it itself and reports any error in order; if
 * the process dies, recovery sweeps temps. (A large rewind's writes mostly run on threads
 * instead: see ThreadedReplace.)
 */
export class TempWriter {
  private readonly written = new Map<Step, Promise<void>>()
  private readonly writers: Promise<void>[]
  private stopped = false

  constructor(
    steps: Step[],
    private readonly ctx: TempWriterContext
  ) {
    const writes = steps.filter((step) => step.kind === 'write' && step.post !== null)
    const finished = new Map<Step, () => void>()
    for (const step of writes) this.written.set(step, new Promise((resolve) => finished.set(step, resolve)))
    let next = 0
    const writer = async (): Promise<void> => {
      for (let step = writes[next++]; step && !this.stopped; step = writes[next++]) {
        try {
          if (step.post) step.temp = await prepareTemp(ctx.fs, ctx.blobs, ctx.ops, step.path, step.post, undefined, plannedTemp(step))
        } catch {
          // Written (and its error reported) in order, when its step runs.
        } finally {
          finished.get(step)?.()
        }
      }
    }
    this.writers = Array.from({ length: Math.min(CONCURRENCY, writes.length) }, writer)
  }

  /** Settles once `step`'s temp file is written and durable, or could not be written (then the step writes it itself). */
  async ready(step: Step): Promise<void> {
    await this.written.get(step)
  }

  /** Start no more temp files, and wait for those being written. */
  async stop(): Promise<void> {
    this.stopped = true
    await Promise.all(this.writers)
  }
}
