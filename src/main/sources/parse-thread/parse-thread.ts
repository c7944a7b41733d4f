import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { workerScriptPath } from '../../journal/worker-path'
import { lineCostAllowanceMb } from './line-cost'
import type { ParsedChunk, ParseJob } from './parse-chunks'
import type { FromParseThread, ToParseThread } from './protocol'

/**
 * Bytes of lines the thread may have parsed ahead of what the importer took: a batch or two
 * (import-batch.ts). The main thread applies a batch's chunks all at once when it commits; the
 * thread parses the next batch meanwhile, instead of waiting for credit. Parsed records waiting in
 * memory stay bounded by it (and by one chunk, when a single chunk is larger).
 */
const CREDIT_BYTES = 8 * 1024 * 1024
/**
 * The thread's heap, bounded: left alone, V8 lets it grow by tens of megabytes while parsing at
 * full speed (it collects lazily when memory seems plentiful). A line that would cost more than
 * it allows (line-cost.ts) is not parsed there: the rest of its file goes to a thread started
 * with a heap sized for that line (read-ahead.ts).
 */
export const PARSE_HEAP_MB = 64

interface JobQueue {
  chunks: ParsedChunk[]
  failed: Error | null
  /** Its last chunk (or its failure) came from the thread. */
  received: boolean
  ended: boolean
  wake: (() => void) | null
}

/** The parse thread stopped (out of memory, or crashed) while it read this job's file: its reading fails with this. */
export class ParseThreadStopped extends Error {
  constructor(
    readonly path: string,
    readonly why: string
  ) {
    super(`Retrace's parse thread stopped while reading ${path} (${why}): it is not read again until it changes`)
    this.name = 'ParseThreadStopped'
  }
}

/**
 * The import's parse thread (import-parse-worker.mts), seen from the main thread: files are
 * submitted ahead, in the order they will be written, and their chunks taken in that order. So
 * one core reads and parses while the other writes the store, and the main thread stays free
 * for the window between chunks. One idle thread is kept for the next import.
 */
export class ParseThread {
  private readonly worker: Worker
  private readonly jobs = new Map<number, JobQueue>()
  private nextId = 0
  private broken: Error | null = null
  private ending = false
  /** The job the thread was reading when it stopped (the first not received whole). */
  private culprit: number | null = null
  /** A thread for one large line and the rest of its file: never kept for another import. */
  private oneOff = false

  /** Threads started, those that stopped on their own (a line too large for the heap), and files given to threads: what tests look at. */
  static readonly counts = { started: 0, stopped: 0, largeLine: 0, jobs: 0 }

  private constructor(
    worker: Worker,
    private readonly heapMb: number,
    private readonly lineCostMb = lineCostAllowanceMb(heapMb)
  ) {
    this.worker = worker
    worker.on('message', (message: FromParseThread) => this.receive(message))
    worker.on('error', (error) => this.fail(error))
    worker.on('exit', (code) => this.fail(new Error(`the import's parse thread stopped (exit code ${code})`)))
    this.post({ type: 'credit', bytes: CREDIT_BYTES })
  }

  private static idle: ParseThread | null = null

  /** The kept thread, or a new one (with a heap of `heapMb`). */
  static take(heapMb = PARSE_HEAP_MB): ParseThread {
    const idle = ParseThread.idle
    ParseThread.idle = null
    if (idle && !idle.broken && idle.heapMb === heapMb) {
      idle.worker.ref()
      return idle
    }
    idle?.end()
    ParseThread.counts.started += 1
    return new ParseThread(startWorker(heapMb), heapMb)
  }

  /**
   * A thread of its own for a line costing more than the usual thread allows (its heap sized by
   * line-cost.ts heapMbForLine), ended once released. `exitOnJob`: a test's fault, the thread
   * exits as it starts reading (as one that ran out of memory stops).
   */
  static forLargeLine(heapMb: number, exitOnJob = false): ParseThread {
    ParseThread.counts.started += 1
    ParseThread.counts.largeLine += 1
    const thread = new ParseThread(startWorker(heapMb, exitOnJob), heapMb)
    thread.oneOff = true
    return thread
  }

  /** Whether the thread stopped while reading job `id`'s file (then that file fails with ParseThreadStopped). */
  stoppedOn(id: number): boolean {
    return this.broken !== null && this.culprit === id
  }

  /** Why the thread stopped (then every job not taken whole fails with it), or null. */
  get stopped(): Error | null {
    return this.broken
  }

  /** Done with it: kept for the next import when every job was taken whole, ended otherwise. */
  release(): void {
    const clean = !this.broken && [...this.jobs.values()].every((job) => job.ended)
    this.jobs.clear()
    if (clean && !this.oneOff && !ParseThread.idle) {
      this.worker.unref()
      ParseThread.idle = this
    } else this.end()
  }

  private end(): void {
    this.ending = true
    void this.worker.terminate()
  }

  /** Queue a file; its chunks are then taken with `chunks(id)`. */
  submit(job: ParseJob): number {
    const id = this.nextId++
    ParseThread.counts.jobs += 1
    this.jobs.set(id, { chunks: [], failed: this.broken, received: this.broken !== null, ended: false, wake: null })
    if (!this.broken) this.post({ type: 'job', id, job, lineCostMb: this.lineCostMb })
    return id
  }

  /** The chunks of a submitted file, as they are parsed. Throws if its reading failed. */
  async *chunks(id: number): AsyncGenerator<ParsedChunk> {
    const queue = this.jobs.get(id)
    if (!queue) throw new Error(`No parse job ${id}.`)
    for (;;) {
      const chunk = queue.chunks.shift()
      if (chunk) {
        this.post({ type: 'credit', bytes: chunk.end - chunk.start })
        if (lastOfJob(chunk)) queue.ended = true
        yield chunk
        if (queue.ended) return
        continue
      }
      if (queue.failed) {
        queue.ended = true
        throw queue.failed
      }
      await new Promise<void>((resolve) => (queue.wake = resolve))
      queue.wake = null
    }
  }

  private receive(message: FromParseThread): void {
    const queue = this.jobs.get(message.id)
    if (!queue) return
    if (message.type === 'chunk') {
      queue.chunks.push(message.chunk)
      if (lastOfJob(message.chunk)) queue.received = true
    } else {
      queue.failed = new Error(message.message)
      queue.received = true
    }
    queue.wake?.()
  }

  private fail(error: Error): void {
    if (this.broken) return
    if (!this.ending) ParseThread.counts.stopped += 1
    this.broken = error
    if (ParseThread.idle === this) ParseThread.idle = null
    // Jobs are read one after another: the first not received whole is the one it was reading.
    this.culprit = [...this.jobs.entries()].find(([, queue]) => !queue.received)?.[0] ?? null
    for (const queue of this.jobs.values()) {
      queue.failed ??= error
      queue.wake?.()
    }
  }

  private post(message: ToParseThread): void {
    if (!this.broken) this.worker.postMessage(message)
  }
}

/** The last chunk a thread sends of a job: the file's last, or the one before a line for a thread of its own. */
function lastOfJob(chunk: ParsedChunk): boolean {
  return chunk.unfinished !== undefined || chunk.largeLine !== undefined
}

function startWorker(heapMb: number, exitOnJob = false): Worker {
  const script = workerScriptPath('import-parse-worker', 'import-parse-worker.mts', __dirname)
  const options = { resourceLimits: { maxOldGenerationSizeMb: heapMb }, workerData: { exitOnJob } }
  if (!script.endsWith('.mts')) return new Worker(script, options)
  // From source: Node runs the TypeScript itself (see ts-source-hooks.mjs).
  const register = join(__dirname, 'ts-source-register.mjs')
  if (!existsSync(register)) throw new Error(`The import's parse thread is not built: run \`npm run build\` (${script}).`)
  return new Worker(script, { ...options, execArgv: ['--experimental-transform-types', '--no-warnings', '--import', register] })
}
