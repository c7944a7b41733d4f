import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { workerScriptPath } from '../../journal/worker-path'
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
 * full speed (it collects lazily when memory seems plentiful). A line too large for it (tens of
 * megabytes) stops the thread; the importer then parses the rest on the main thread
 * (read-ahead.ts).
 */
export const PARSE_HEAP_MB = 64

interface JobQueue {
  chunks: ParsedChunk[]
  failed: Error | null
  ended: boolean
  wake: (() => void) | null
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

  /** Threads started, and those that stopped on their own (a line too large for the heap): what tests look at. */
  static readonly counts = { started: 0, stopped: 0 }

  private constructor(
    worker: Worker,
    private readonly heapMb: number
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

  /** Why the thread stopped (then every job not taken whole fails with it), or null. */
  get stopped(): Error | null {
    return this.broken
  }

  /** Done with it: kept for the next import when every job was taken whole, ended otherwise. */
  release(): void {
    const clean = !this.broken && [...this.jobs.values()].every((job) => job.ended)
    this.jobs.clear()
    if (clean && !ParseThread.idle) {
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
    this.jobs.set(id, { chunks: [], failed: this.broken, ended: false, wake: null })
    if (!this.broken) this.post({ type: 'job', id, job })
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
        if (chunk.unfinished !== undefined) queue.ended = true
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
    if (message.type === 'chunk') queue.chunks.push(message.chunk)
    else queue.failed = new Error(message.message)
    queue.wake?.()
  }

  private fail(error: Error): void {
    if (this.broken) return
    if (!this.ending) ParseThread.counts.stopped += 1
    this.broken = error
    if (ParseThread.idle === this) ParseThread.idle = null
    for (const queue of this.jobs.values()) {
      queue.failed ??= error
      queue.wake?.()
    }
  }

  private post(message: ToParseThread): void {
    if (!this.broken) this.worker.postMessage(message)
  }
}

function startWorker(heapMb: number): Worker {
  const script = workerScriptPath('import-parse-worker', 'import-parse-worker.mts', __dirname)
  const resourceLimits = { maxOldGenerationSizeMb: heapMb }
  if (!script.endsWith('.mts')) return new Worker(script, { resourceLimits })
  // From source: Node runs the TypeScript itself (see ts-source-hooks.mjs).
  const register = join(__dirname, 'ts-source-register.mjs')
  if (!existsSync(register)) throw new Error(`The import's parse thread is not built: run \`npm run build\` (${script}).`)
  return new Worker(script, { resourceLimits, execArgv: ['--experimental-transform-types', '--no-warnings', '--import', register] })
}
