import type { BlobStore, WriteOptions } from '../blob-store'
import { blobWriters } from '../blob-writers'
import type { FsOps, WorkspaceFs } from '../workspace-fs'
import type { RootFileSystem } from './durability'
import { prepareTemp, type Step } from './steps'

export interface TempWriterContext {
  fs: WorkspaceFs
  blobs: BlobStore
  ops: FsOps
}

/** Temp files being written at once, one by one durable: more in flight lets the file system commit several fsyncs together. */
const CONCURRENCY = 16
/** A large rewind's first flush waits for this many temps; each later one for twice the one before. */
const FIRST_FLUSH_BATCH = 64
/** Batched: enough ahead that the writer threads never wait for the renames, and each flush covers many files. */
const BATCHED_CONCURRENCY = 64

/**
 * Writes the new content of every file of a rewind to its temp file, ahead of the steps, which
 * rename them into place in order. Nothing at any target path changes here. A temp that cannot
 * be prepared (its folder appears only after an earlier step, say) is left to its step, which
 * writes it itself and reports any error in order; if the process dies, recovery sweeps temps.
 *
 * Each temp is durable before its rename, in one of two ways:
 * - one by one (`rootFs` null): each temp is fsynced as it is written, several in flight;
 * - batched (a large rewind on a system with syncfs, `rootFs` given): temps are written without
 *   fsync, on the blob writer threads, and the root's file system is flushed once for many of
 *   them (batches doubling from 64) while the steps rename those an earlier flush made durable.
 *   1,000 files then cost a few flushes instead of 1,000 fsyncs, and their decoding, hashing
 *   and writing run on another core. A temp on another file system (a mount inside the
 *   workspace) is fsynced on its own, as syncfs of the root does not cover it.
 */
export class TempWriter {
  private readonly written = new Map<Step, Promise<void>>()
  private readonly writers: Promise<void>[]
  private stopped = false
  /** Writes not yet finished. */
  private unfinished: number
  /** Written, but not yet covered by a flush of the root's file system. */
  private readonly unflushed = new Set<Step>()
  private flushing = false
  private flushError: Error | null = null
  /** Temps the next flush waits for, unless no more are coming: doubles after each flush. */
  private flushBatch = FIRST_FLUSH_BATCH
  /** Settled after each flush, so steps waiting for theirs look again. */
  private flushed = signal()

  constructor(
    steps: Step[],
    private readonly ctx: TempWriterContext,
    private readonly rootFs: RootFileSystem | null
  ) {
    const writes = steps.filter((step) => step.kind === 'write' && step.post !== null)
    const finished = new Map<Step, () => void>()
    for (const step of writes) this.written.set(step, new Promise((resolve) => finished.set(step, resolve)))
    this.unfinished = writes.length
    let next = 0
    const writer = async (): Promise<void> => {
      for (let step = writes[next++]; step && !this.stopped; step = writes[next++]) {
        try {
          await this.write(step)
        } catch {
          // Written (and its error reported) in order, when its step runs.
        } finally {
          this.unfinished -= 1
          finished.get(step)?.()
          this.flushWhenWorthIt()
        }
      }
    }
    this.writers = Array.from({ length: Math.min(rootFs ? BATCHED_CONCURRENCY : CONCURRENCY, writes.length) }, writer)
  }

  /**
   * Settles once `step`'s temp file is written and durable, or could not be written (then the
   * step writes it itself). Rejects only if flushing the file system failed.
   */
  async ready(step: Step): Promise<void> {
    await this.written.get(step)
    while (this.unflushed.has(step)) {
      if (this.flushError !== null) throw this.flushError
      const flushed = this.flushed.promise
      this.flushWhenWorthIt()
      await flushed
    }
  }

  /** Start no more temp files, and wait for those being written. */
  async stop(): Promise<void> {
    this.stopped = true
    await Promise.all(this.writers)
  }

  private async write(step: Step): Promise<void> {
    if (!step.post) return
    const { fs, blobs, ops } = this.ctx
    if (!this.rootFs) {
      step.temp = await prepareTemp(fs, blobs, ops, step.path, step.post)
      return
    }
    const coveredByFlush = this.rootFs.holdsFolderOf(step.path)
    const options: WriteOptions = { durable: !coveredByFlush, writers: blobWriters }
    step.temp = await prepareTemp(fs, blobs, ops, step.path, step.post, options)
    if (coveredByFlush) this.unflushed.add(step)
  }

  /**
   * Flush the root's file system for every temp written so far, when enough are waiting or no
   * more are coming. Driven by the writers, not the steps, so a flush runs while the steps
   * rename the temps the one before made durable. A flush starts a program and waits for the
   * disk: it is worth doing for many files at once, hence the doubling batch.
   */
  private flushWhenWorthIt(): void {
    if (this.flushing || this.flushError !== null || this.unflushed.size === 0) return
    const noMoreComing = this.unfinished === 0 || this.stopped
    if (this.unflushed.size < this.flushBatch && !noMoreComing) return
    this.flushing = true
    this.flushBatch *= 2
    const covered = [...this.unflushed]
    this.ctx.ops.syncFileSystem(this.ctx.fs.root).then(
      () => {
        for (const step of covered) this.unflushed.delete(step)
        this.afterFlush()
      },
      (error: unknown) => {
        this.flushError = error instanceof Error ? error : new Error(String(error))
        this.afterFlush()
      }
    )
  }

  private afterFlush(): void {
    this.flushing = false
    const flushed = this.flushed
    this.flushed = signal()
    flushed.resolve()
    this.flushWhenWorthIt()
  }
}

/** A promise and the function that settles it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined
  const promise = new Promise<void>((settle) => (resolve = settle))
  return { promise, resolve }
}
