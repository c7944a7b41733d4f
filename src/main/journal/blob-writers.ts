import { Worker, type TransferListItem } from 'node:worker_threads'
import type { ReplaceRequest, ServeFlushesRequest, WriterReply, WriterRequest } from './blob-writer-protocol'
import { READY_REPLY_ID } from './shared-constants.mts'
import { blobWriterWorkerPath } from './worker-path'

export type ReplaceLaneRequest = Omit<ReplaceRequest, 'id' | 'kind'>
export type ServeFlushes = Omit<ServeFlushesRequest, 'id' | 'kind'>

interface Pending {
  /** The thread's reply. */
  settle: (reply: WriterReply) => void
  /** The thread died first. */
  reject: (error: Error) => void
}

interface WriterThread {
  worker: Worker
  pending: Map<number, Pending>
  /** Its script has loaded (it said so: READY_REPLY_ID): a request now costs no start-up. */
  ready: boolean
}

/** Threads left idle this long are ended: a rewind is rare, a thread's memory is not free. */
const IDLE_MS = 30_000

/**
 * Threads that run the lanes of a large rewind (blob-writer-worker.mts, rewind/threaded-replace.ts):
 * each decodes, verifies and writes inline blobs and replaces files with them, so that per-file
 * work runs on other cores than the main thread's; and one more, the flusher, that runs
 * file-system flushes through a helper process it keeps (for the lanes, and for `sync`). It only
 * ever waits, so it answers at once, whatever the others are doing. A thread that dies fails its
 * requests with an error (the rewind is then rolled back) and is replaced by the next request.
 * Threads are unref'd while idle, and ended after IDLE_MS.
 */
export class BlobWriterPool {
  private threads: WriterThread[] = []
  private flusher: WriterThread | null = null
  private nextId = 1
  private idleTimer: NodeJS.Timeout | null = null

  constructor(private readonly script: () => string) {}

  /**
   * Start the threads now (at least `count`, and the flusher), so their start-up (tens of
   * milliseconds) overlaps other work; with `program`, the flusher starts its helper process too.
   */
  warm(count: number, program?: string): void {
    this.startWriters(count)
    this.flusher ??= this.start()
    if (program) this.send({ kind: 'prepare-flushes', id: this.nextId++, program }, this.flusher).catch(() => undefined) // a flush reports any failure
  }

  /** Whether `count` writer threads and the flusher are running already, their scripts loaded. */
  ready(count: number): boolean {
    return this.threads.filter((thread) => thread.ready).length >= count && this.flusher?.ready === true
  }

  private startWriters(count: number): void {
    while (this.threads.length < count) this.threads.push(this.start())
  }

  /** Run `program --file-system -- path` on the flusher thread. Rejects with the program's complaint (code EIO). */
  sync(program: string, path: Buffer): Promise<void> {
    return this.send({ kind: 'sync', id: this.nextId++, program, path }, this.flusherThread()).then(throwFailure)
  }

  /** Serve the flushes of a large rewind's lanes on the flusher thread; settles once `serving` is cleared, or at a failed flush. */
  serveFlushes(request: ServeFlushes): Promise<WriterReply> {
    return this.send({ ...request, kind: 'serve-flushes', id: this.nextId++ }, this.flusherThread())
  }

  private flusherThread(): WriterThread {
    this.flusher ??= this.start()
    return this.flusher
  }

  /**
   * Run the lanes of a large rewind, each on a thread of its own (more threads are started if
   * needed: lanes sharing a thread would run one after the other). Each promise settles with
   * its lane's reply, or rejects if its thread died.
   */
  replace(lanes: ReplaceLaneRequest[]): Promise<WriterReply>[] {
    this.startWriters(lanes.length)
    return lanes.map((lane, index) => this.send({ ...lane, kind: 'replace', id: this.nextId++ }, this.threads[index] as WriterThread, [lane.jobs]))
  }

  private send(request: WriterRequest, thread: WriterThread, transfer: TransferListItem[] = []): Promise<WriterReply> {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    this.idleTimer = null
    return new Promise<WriterReply>((settle, reject) => {
      if (thread.pending.size === 0) thread.worker.ref()
      thread.pending.set(request.id, { settle, reject })
      thread.worker.postMessage(request, transfer)
    })
  }

  /** End every thread (tests, shutdown). Writes in flight fail. */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    this.idleTimer = null
    const threads = this.all()
    this.threads = []
    this.flusher = null
    await Promise.all(threads.map((thread) => thread.worker.terminate()))
  }

  private start(): WriterThread {
    const thread: WriterThread = { worker: new Worker(this.script()), pending: new Map(), ready: false }
    thread.worker.on('message', (reply: WriterReply) => this.settle(thread, reply))
    const fail = (why: string) => {
      this.threads = this.threads.filter((other) => other !== thread)
      if (this.flusher === thread) this.flusher = null
      for (const pending of thread.pending.values()) pending.reject(new Error(`the blob writer thread stopped (${why})`))
      thread.pending.clear()
    }
    thread.worker.on('error', (error) => fail(error.message))
    thread.worker.on('exit', (code) => fail(`exit code ${code}`))
    thread.worker.unref() // after the listeners: adding a 'message' listener refs the worker again
    return thread
  }

  private all(): WriterThread[] {
    return this.flusher ? [...this.threads, this.flusher] : [...this.threads]
  }

  private settle(thread: WriterThread, reply: WriterReply): void {
    if (reply.id === READY_REPLY_ID) {
      thread.ready = true
      return
    }
    const pending = thread.pending.get(reply.id)
    if (!pending) return
    thread.pending.delete(reply.id)
    if (thread.pending.size === 0) {
      thread.worker.unref()
      this.endWhenIdle()
    }
    pending.settle(reply)
  }

  private endWhenIdle(): void {
    if (this.idleTimer || this.all().some((thread) => thread.pending.size > 0)) return
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null
      if (this.all().every((thread) => thread.pending.size === 0)) void this.close()
    }, IDLE_MS)
    this.idleTimer.unref()
  }
}

/** A flush's reply as its promise: the error with its `code`. */
function throwFailure(reply: WriterReply): void {
  if (reply.ok) return
  throw Object.assign(new Error(reply.message), reply.code === undefined ? {} : { code: reply.code })
}

/** The process's writer threads: as many as a rewind has lanes (see LANES in rewind/threaded-replace.ts), and the flusher. */
export const blobWriters = new BlobWriterPool(() => blobWriterWorkerPath())
