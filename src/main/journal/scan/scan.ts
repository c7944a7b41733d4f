import { Worker } from 'node:worker_threads'
import { RetraceError } from '../../../shared/contract'
import { resolveReadableFolder } from '../../services/folder-access'
import type { Db } from '../../store/database'
import { INLINE_MAX_BYTES, type BlobStore } from '../blob-store'
import { displayPath, type PathKey } from '../paths'
import { ScanCollector } from './collector'
import { loadFileStates, saveFileStates } from './file-states'
import type { CacheEntry, ParentMessage, ScanInput, WireCounts, WorkerMessage } from './protocol'
import { DEFAULT_SCAN_LIMITS, type ScanLimits, type ScannedFile, type ScanProgress, type ScanResult } from './types'
import { scanWorkerPath } from './worker-path'

export interface ScanOptions {
  root: string
  workspaceId: number
  db: Db
  blobs: BlobStore
  limits?: Partial<ScanLimits>
  signal?: AbortSignal
  onProgress?: (progress: ScanProgress) => void
  /** See `ScanInput.racyWindowMs`. Only tests should need to change it. */
  racyWindowMs?: number
  /** The worker script; `scanWorkerPath()` unless a test substitutes a fake worker. */
  workerPath?: string
  /** The workspace's file states, if the caller already loaded them (saves a second read). */
  previous?: Map<PathKey, ScannedFile>
}

/** After a cancel request, how long the worker gets to stop by itself (and remove its temp file) before it is terminated. */
const CANCEL_GRACE_MS = 1000
const DEFAULT_RACY_WINDOW_MS = 100

const cancelledError = (): RetraceError => new RetraceError('CANCELLED', 'The workspace scan was cancelled; nothing was recorded.')

/**
 * Scan a workspace folder off the main thread: every file and link (never followed), hashed,
 * its content in the blob store, `.git` and git-ignored paths left out. Files whose stat matches
 * the previous scan are not read again. Only a completed scan updates `file_states`; a
 * cancelled or failed one leaves it as it was.
 */
export async function scanWorkspace(options: ScanOptions): Promise<ScanResult> {
  const started = performance.now()
  const root = resolveReadableFolder(options.root)
  if (options.signal?.aborted) throw cancelledError()
  const limits = { ...DEFAULT_SCAN_LIMITS, ...options.limits }
  const previous = options.previous ?? loadFileStates(options.db, options.workspaceId)
  const cache = new Map<string, CacheEntry>()
  for (const [key, file] of previous) cache.set(key, { key, kind: file.kind, size: file.size, mode: file.mode, hash: file.hash, mtimeNs: file.mtimeNs, ctimeNs: file.ctimeNs, ino: file.ino })
  const input: ScanInput = {
    root,
    tempDir: options.blobs.tempDir,
    inlineMaxBytes: INLINE_MAX_BYTES,
    maxFiles: limits.maxFiles,
    maxFileBytes: limits.maxFileBytes,
    racyWindowMs: options.racyWindowMs ?? DEFAULT_RACY_WINDOW_MS,
    cache,
    flow: new SharedArrayBuffer(4)
  }
  const collector = new ScanCollector(options.db, options.blobs)
  const done = await runWorker(input, collector, options)

  options.onProgress?.({ phase: 'saving', ...progressOf(done.counts) })
  saveFileStates(options.db, options.workspaceId, previous, collector.files, { racy: collector.racy, complete: !done.truncated })
  options.onProgress?.({ phase: 'done', ...progressOf(done.counts) })
  return {
    files: collector.files,
    skipped: collector.skipped,
    truncated: done.truncated,
    stats: { ...done.counts, ms: Math.round(performance.now() - started) }
  }
}

const progressOf = (counts: WireCounts): Omit<ScanProgress, 'phase'> => ({ filesSeen: counts.filesSeen, filesHashed: counts.filesHashed, bytesHashed: counts.bytesHashed })

/** Run the worker to completion, storing its batches as they arrive. Settles only once the worker has stopped using the workspace. */
function runWorker(input: ScanInput, collector: ScanCollector, options: ScanOptions): Promise<{ truncated: boolean; counts: WireCounts }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(options.workerPath ?? scanWorkerPath(), { workerData: input })
    let outcome: { ok: true; truncated: boolean; counts: WireCounts } | { ok: false; error: Error } | null = null
    let graceTimer: NodeJS.Timeout | undefined
    const storedBatches = new Int32Array(input.flow)

    // The first outcome wins; the promise settles when the worker has exited, so no temp file
    // is still being written behind the caller's back.
    const finish = (result: NonNullable<typeof outcome>): void => {
      outcome ??= result
      void worker.terminate()
    }
    const onAbort = (): void => {
      if (outcome) return
      outcome = { ok: false, error: cancelledError() }
      worker.postMessage({ type: 'cancel' } satisfies ParentMessage)
      Atomics.notify(storedBatches, 0) // wake a worker waiting for room, so it sees the cancel now
      graceTimer = setTimeout(() => void worker.terminate(), CANCEL_GRACE_MS)
    }
    options.signal?.addEventListener('abort', onAbort, { once: true })

    worker.on('message', (message: WorkerMessage) => {
      if (outcome) {
        if (message.type === 'batch') collector.discard(message.files)
        if (message.type === 'cancelled') void worker.terminate()
        return
      }
      try {
        handle(message)
      } catch (error) {
        finish({ ok: false, error: error instanceof Error ? error : new Error(String(error)) })
      }
    })
    worker.on('error', (error) => finish({ ok: false, error: new RetraceError('IO_ERROR', `The workspace scan of ${input.root} failed: ${error.message}`) }))
    worker.on('exit', () => {
      clearTimeout(graceTimer)
      options.signal?.removeEventListener('abort', onAbort)
      const final = outcome ?? { ok: false, error: new RetraceError('IO_ERROR', `The workspace scan of ${input.root} stopped unexpectedly.`) }
      if (final.ok) resolve(final)
      else reject(final.error)
    })

    function handle(message: WorkerMessage): void {
      switch (message.type) {
        case 'progress':
          options.onProgress?.({ phase: 'scanning', ...progressOf(message) })
          return
        case 'batch':
          collector.accept(message.files, message.buffer)
          Atomics.add(storedBatches, 0, 1)
          Atomics.notify(storedBatches, 0)
          return
        case 'done':
          collector.addSkipped(message.skipped)
          finish({ ok: true, truncated: message.truncated, counts: message.counts })
          return
        case 'cancelled':
          finish({ ok: false, error: cancelledError() })
          return
        case 'error': {
          const where = message.key === null ? input.root : displayPath(message.key as PathKey)
          finish({ ok: false, error: new RetraceError('IO_ERROR', `The workspace scan could not read ${where}: ${message.message}`) })
        }
      }
    }
  })
}
