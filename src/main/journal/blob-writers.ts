import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { WriteRequest, WriterReply, WriterRequest } from './blob-writer-protocol'
import { blobWriterWorkerPath } from './worker-path'

/** The writer thread found the stored bytes undecodable or not matching their hash. */
export class CorruptBlobError extends Error {}

export type InlineBlobWrite = Omit<WriteRequest, 'id' | 'kind'>

interface Pending {
  resolve: () => void
  reject: (error: Error) => void
}

interface WriterThread {
  worker: Worker
  pending: Map<number, Pending>
}

/** Threads left idle this long are ended: a rewind is rare, a thread's memory is not free. */
const IDLE_MS = 30_000

/**
 * Threads that decode, verify and write inline blobs to new files (blob-writer-worker.mts), and
 * start the file-system flushes, so a large rewind's per-file work runs on other cores while
 * the main thread renames files into place. Each write goes to the thread with the fewest in flight. A thread that dies fails its
 * writes with an error (their files are then written in-thread or reported by the caller) and
 * is replaced by the next write. Threads are unref'd while idle, and ended after IDLE_MS.
 */
export class BlobWriterPool {
  private threads: WriterThread[] = []
  private nextId = 1
  private idleTimer: NodeJS.Timeout | null = null

  constructor(
    private readonly script: () => string,
    readonly size: number
  ) {}

  /** Start the threads now, so their start-up (tens of milliseconds) overlaps other work. */
  warm(): void {
    while (this.threads.length < this.size) this.threads.push(this.start())
  }

  /** Write one blob to a new file on a writer thread. Rejects with CorruptBlobError, or the file-system error (with its `code`). */
  write(job: InlineBlobWrite): Promise<void> {
    return this.send({ ...job, kind: 'write', id: this.nextId++ })
  }

  /** Run `program --file-system -- path` from a writer thread. Rejects with the program's complaint (code EIO). */
  sync(program: string, path: string): Promise<void> {
    return this.send({ kind: 'sync', id: this.nextId++, program, path })
  }

  private send(request: WriterRequest): Promise<void> {
    this.warm()
    if (this.idleTimer) clearTimeout(this.idleTimer)
    this.idleTimer = null
    const thread = this.threads.reduce((best, candidate) => (candidate.pending.size < best.pending.size ? candidate : best))
    return new Promise<void>((resolve, reject) => {
      if (thread.pending.size === 0) thread.worker.ref()
      thread.pending.set(request.id, { resolve, reject })
      thread.worker.postMessage(request)
    })
  }

  /** End every thread (tests, shutdown). Writes in flight fail. */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    this.idleTimer = null
    const threads = this.threads
    this.threads = []
    await Promise.all(threads.map((thread) => thread.worker.terminate()))
  }

  private start(): WriterThread {
    const thread: WriterThread = { worker: new Worker(this.script()), pending: new Map() }
    thread.worker.on('message', (reply: WriterReply) => this.settle(thread, reply))
    const fail = (why: string) => {
      this.threads = this.threads.filter((other) => other !== thread)
      for (const pending of thread.pending.values()) pending.reject(new Error(`the blob writer thread stopped (${why})`))
      thread.pending.clear()
    }
    thread.worker.on('error', (error) => fail(error.message))
    thread.worker.on('exit', (code) => fail(`exit code ${code}`))
    thread.worker.unref() // after the listeners: adding a 'message' listener refs the worker again
    return thread
  }

  private settle(thread: WriterThread, reply: WriterReply): void {
    const pending = thread.pending.get(reply.id)
    if (!pending) return
    thread.pending.delete(reply.id)
    if (thread.pending.size === 0) {
      thread.worker.unref()
      this.endWhenIdle()
    }
    if (reply.ok) pending.resolve()
    else if (reply.kind === 'corrupt') pending.reject(new CorruptBlobError(reply.message))
    else pending.reject(Object.assign(new Error(reply.message), reply.code === undefined ? {} : { code: reply.code }))
  }

  private endWhenIdle(): void {
    if (this.idleTimer || this.threads.some((thread) => thread.pending.size > 0)) return
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null
      if (this.threads.every((thread) => thread.pending.size === 0)) void this.close()
    }, IDLE_MS)
    this.idleTimer.unref()
  }
}

/**
 * The process's writer threads. With two cores one thread is enough: the main thread keeps the
 * other busy with renames; more cores get more threads, up to four.
 */
export const blobWriters = new BlobWriterPool(() => blobWriterWorkerPath(), Math.max(1, Math.min(4, availableParallelism() - 1)))
