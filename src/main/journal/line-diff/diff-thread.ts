import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { workerScriptPath } from '../worker-path'
import { DIFF_THREAD_DEADLINE_MS } from './bounds.mts'
import { sideBySidePatch, type LineDiff, type LineDiffBounds } from './line-diff.mts'
import type { DiffAnswer, DiffRequest } from './protocol'

/** The diff thread's script: built `out/main/diff-worker.js`, or the source under vitest. */
export const diffWorkerPath = (dir: string = __dirname): string => workerScriptPath('diff-worker', 'diff-worker.mts', dir)

interface Job {
  request: DiffRequest
  resolve: (diff: LineDiff) => void
  reject: (error: Error) => void
}

interface Lane {
  worker: Worker
  job: Job | null
  deadline: NodeJS.Timeout | null
}

export interface DiffOptions {
  countsOnly?: boolean
  /** Tighter bounds (tests); the defaults are bounds.mts's. */
  bounds?: LineDiffBounds
}

/**
 * Line diffs computed on worker threads, never on the thread that answers requests (R27): a
 * worst-case diff there would hold every other request behind it. At most `lanes` threads (two
 * here, one per core but one left for the requests), jobs first come first served. An idle
 * thread is unref'd, so it never keeps a process alive. A thread that errs, exits or misses
 * DIFF_THREAD_DEADLINE_MS is ended and replaced; its diff reports too many changes.
 */
export class DiffThreads {
  private readonly lanes: Lane[] = []
  private readonly queue: Job[] = []
  private nextId = 0

  constructor(
    private readonly path: string = diffWorkerPath(),
    private readonly maxLanes: number = Math.max(1, Math.min(2, availableParallelism() - 1)),
    private readonly deadlineMs: number = DIFF_THREAD_DEADLINE_MS
  ) {}

  /** The bounded line diff of two texts (bounds.mts), computed on a diff thread. */
  diff(oldText: string, newText: string, options: DiffOptions = {}): Promise<LineDiff> {
    return new Promise((resolve, reject) => {
      const request: DiffRequest = { id: this.nextId++, oldText, newText, countsOnly: options.countsOnly ?? false, ...(options.bounds ? { bounds: options.bounds } : {}) }
      this.queue.push({ request, resolve, reject })
      this.pump()
    })
  }

  /** End every thread; queued and running diffs are rejected (shutdown, tests). */
  async close(): Promise<void> {
    const error = new Error('The diff threads were closed before this diff finished.')
    for (const job of this.queue.splice(0)) job.reject(error)
    const lanes = this.lanes.splice(0)
    for (const lane of lanes) {
      if (lane.deadline) clearTimeout(lane.deadline)
      lane.job?.reject(error)
    }
    await Promise.all(lanes.map((lane) => lane.worker.terminate()))
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const lane = this.lanes.find((candidate) => candidate.job === null) ?? (this.lanes.length < this.maxLanes ? this.startLane() : null)
      if (!lane) return
      this.run(lane, this.queue.shift() as Job)
    }
  }

  private startLane(): Lane {
    const lane: Lane = { worker: new Worker(this.path), job: null, deadline: null }
    lane.worker.on('message', (answer: DiffAnswer) => {
      const job = lane.job
      if (!job || job.request.id !== answer.id) return
      this.finish(lane)
      if ('diff' in answer) job.resolve(answer.diff)
      else job.reject(new Error(`The diff thread (${this.path}) failed: ${answer.error}`))
      this.pump()
    })
    const fail = (why: string) => () => this.drop(lane, why)
    lane.worker.on('error', (error) => this.drop(lane, error.message))
    lane.worker.on('exit', fail('it exited'))
    lane.worker.unref()
    this.lanes.push(lane)
    return lane
  }

  private run(lane: Lane, job: Job): void {
    lane.job = job
    lane.worker.ref()
    lane.deadline = setTimeout(() => this.drop(lane, `no answer in ${this.deadlineMs} ms`), this.deadlineMs)
    lane.worker.postMessage(job.request)
  }

  private finish(lane: Lane): void {
    if (lane.deadline) clearTimeout(lane.deadline)
    lane.deadline = null
    lane.job = null
    lane.worker.unref()
  }

  /**
   * A thread that cannot be trusted any more: ended and forgotten. Its job still gets an answer,
   * the one past the bounds (too many changes, the two versions side by side), built here in
   * linear time, so a diff never fails for being hard.
   */
  private drop(lane: Lane, why: string): void {
    const index = this.lanes.indexOf(lane)
    if (index === -1) return
    this.lanes.splice(index, 1)
    const job = lane.job
    this.finish(lane)
    void lane.worker.terminate()
    if (job) {
      const { oldText, newText, countsOnly } = job.request
      console.warn(`retrace: the diff thread was ended (${why}); the diff reports too many changes to diff by line.`)
      job.resolve({ tooManyChanges: true, added: 0, removed: 0, patch: countsOnly ? '' : sideBySidePatch(oldText, newText), stoppedBy: 'time' })
    }
    this.pump()
  }
}

/** The process's diff threads (started on the first diff). */
export const diffThreads = new DiffThreads()
