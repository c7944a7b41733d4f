import { Worker } from 'node:worker_threads'
import { INLINE_DEFLATE } from '../../shared-constants.mts'
import type { DeflateHelperData, DeflateReply, DeflateRequest, WireFile } from '../protocol.ts'
import { keepIfWorthIt } from './keep-if-worth-it.mts'

/** Content handed to the helper and not yet answered, beyond which the walk deflates files itself. */
const HELPER_BACKLOG_BYTES = 1024 * 1024

/**
 * The deflate helper thread (deflate-worker.mts): it packs inline content on another core while
 * the scan worker walks, lstats and reads on. A capture after a 100-file edit spent a quarter of
 * its walk deflating; with the helper the deflates overlap the stats. The walk waits for the
 * answers only when it hands a batch over. Until the helper has started (its script loaded), and
 * when it falls behind (more than HELPER_BACKLOG_BYTES unanswered: a first capture, where
 * everything is read), the walk deflates files itself, so it never waits for it and both threads
 * stay busy. If the helper fails, its files simply stay raw (correct, only larger), and the next
 * scan starts another.
 */
export class DeflateHelper {
  failed = false
  readonly path: string
  /** Set to 1 by the helper once its script has loaded: files handed over then are deflated at once. */
  private readonly ready = new Int32Array(new SharedArrayBuffer(4))
  private readonly thread: Worker
  private readonly jobs = new Map<number, { file: WireFile; target: ArrayBuffer; withDictionary: boolean }>()
  private nextId = 0
  private backlog = 0
  /** The dictionary the helper was last given (undefined: no options sent yet). */
  private given: Buffer | null | undefined = undefined
  private whenSettled: (() => void) | null = null

  constructor(path: string) {
    this.path = path
    this.thread = new Worker(path, { workerData: { ready: this.ready } satisfies DeflateHelperData })
    this.thread.on('message', (reply: DeflateReply) => this.answer(reply))
    this.thread.on('error', () => this.fail())
    this.thread.on('exit', () => this.fail())
  }

  /** Hand the helper `file`'s content at `file.offset` of `target`; false if it is not running yet, has enough to do, or failed: deflate it here. */
  take(file: WireFile, target: ArrayBuffer, withDictionary: Buffer | null): boolean {
    if (this.failed || Atomics.load(this.ready, 0) === 0 || this.backlog > HELPER_BACKLOG_BYTES) return false
    if (this.given !== withDictionary) {
      this.given = withDictionary
      this.send({ type: 'options', deflate: INLINE_DEFLATE, dictionary: withDictionary ? new Uint8Array(withDictionary) : null })
    }
    const id = this.nextId++
    const bytes = new Uint8Array(target, file.offset, file.size).slice() // a copy: a view would clone the whole batch buffer
    this.jobs.set(id, { file, target, withDictionary: withDictionary !== null })
    this.backlog += file.size
    this.send({ type: 'pack', id, bytes: bytes.buffer }, [bytes.buffer])
    return true
  }

  /** Settles once every file handed over has its answer applied (or, if the helper failed, stays raw). */
  settled(): Promise<void> {
    if (this.jobs.size === 0) return Promise.resolve()
    return new Promise((resolve) => (this.whenSettled = resolve))
  }

  end(): Promise<number> {
    return this.thread.terminate()
  }

  /** A new scan: answers still due for an abandoned one are dropped when they arrive. */
  forget(): void {
    this.jobs.clear()
    this.backlog = 0
    this.given = undefined
  }

  private send(request: DeflateRequest, transfer: ArrayBuffer[] = []): void {
    this.thread.postMessage(request, transfer)
  }

  private answer(reply: DeflateReply): void {
    const job = this.jobs.get(reply.id)
    if (!job) return
    this.jobs.delete(reply.id)
    this.backlog -= job.file.size
    keepIfWorthIt(job.file, new Uint8Array(job.target, job.file.offset, job.file.size), reply.packed, job.withDictionary)
    if (this.jobs.size === 0) this.settle()
  }

  private fail(): void {
    this.failed = true
    this.jobs.clear()
    this.settle()
  }

  private settle(): void {
    const resolve = this.whenSettled
    this.whenSettled = null
    resolve?.()
  }
}
