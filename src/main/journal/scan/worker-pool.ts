import { Worker } from 'node:worker_threads'

/** A scan worker thread and the script it runs. */
export interface ScanWorker {
  thread: Worker
  path: string
}

/**
 * Scan worker threads kept between scans: starting one (a thread, a V8 isolate, the script)
 * costs tens of milliseconds per capture, more than a small edit's whole scan. At most one idle
 * worker per script; a second scan running at the same time gets a fresh one. Only a worker
 * whose scan ended with `done` comes back: a failed, cancelled or misbehaving one is terminated
 * instead. Idle workers are unref'd, so they never keep a process alive.
 */
class ScanWorkerPool {
  /** Idle workers by script, each with the listener that drops it if it misbehaves while idle. */
  private readonly idle = new Map<string, { worker: ScanWorker; drop: () => void }>()

  /** Have an idle worker for `path` ready, starting one if there is none. */
  warm(path: string): void {
    if (!this.idle.has(path)) this.park({ thread: new Worker(path), path })
  }

  /** An idle worker for `path` (the caller now owns it), or a new one. */
  take(path: string): ScanWorker {
    const entry = this.idle.get(path)
    if (!entry) return { thread: new Worker(path), path }
    this.idle.delete(path)
    const { worker, drop } = entry
    for (const event of ['message', 'error', 'exit']) worker.thread.off(event, drop)
    worker.thread.ref()
    return worker
  }

  /** A worker that finished its scan cleanly: kept for the next scan, or ended if one is already kept. */
  release(worker: ScanWorker): void {
    if (this.idle.has(worker.path)) void worker.thread.terminate()
    else this.park(worker)
  }

  /** End every idle worker (tests, shutdown). */
  async close(): Promise<void> {
    const entries = [...this.idle.values()]
    this.idle.clear()
    await Promise.all(entries.map(({ worker }) => worker.thread.terminate()))
  }

  private park(worker: ScanWorker): void {
    const drop = (): void => {
      if (this.idle.get(worker.path)?.worker === worker) this.idle.delete(worker.path)
      void worker.thread.terminate()
    }
    // An idle worker has nothing to say: any message, error or exit means it cannot be trusted with a scan.
    for (const event of ['message', 'error', 'exit']) worker.thread.on(event, drop)
    worker.thread.unref()
    this.idle.set(worker.path, { worker, drop })
  }
}

export const scanWorkers = new ScanWorkerPool()
