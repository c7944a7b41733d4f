import { diskFullMessage, isDiskFull } from '../disk-full'
import { RetraceError } from '../../../shared/contract'
import { resolveReadableFolder } from '../../fs/folder-access'
import type { Store } from '../../store/store'
import { INLINE_MAX_BYTES, type BlobStore } from '../blob-store'
import { displayPath, type PathKey } from '../../fs/paths'
import { DICTIONARY_BYTES, DICTIONARY_SAMPLE_BYTES } from '../deflate-dictionary'
import { ScanCollector } from './collector'
import type { CacheColumns, ParentMessage, ScanInput, WireCounts, WorkerMessage } from './protocol'
import { DEFAULT_SCAN_LIMITS, type ScanLimits, type ScannedFile, type ScanProgress, type ScanResult } from './types'
import { scanWorkers, type ScanWorker } from './worker-pool'
import { deflateWorkerPath, scanWorkerPath } from '../worker-path'
import { RACY_WINDOW_MS } from '../shared-constants.mts'

export interface ScanOptions {
  root: string
  workspaceId: number
  /** Where the scan's file states are kept, and its content rows written. */
  store: Pick<Store, 'fileStates' | 'transaction'>
  blobs: BlobStore
  limits?: Partial<ScanLimits>
  signal?: AbortSignal
  onProgress?: (progress: ScanProgress) => void
  /** See `ScanInput.racyWindowMs`. Only tests should need to change it. */
  racyWindowMs?: number
  /** The worker script; `scanWorkerPath()` unless a test substitutes a fake worker. */
  workerPath?: string
  /** The worker's deflate helper script (`deflateWorkerPath()`); null: the worker deflates alone. */
  deflateWorkerPath?: string | null
  /** See `ScanInput.deflateHelperFromBytes`. Only tests should need to change it. */
  deflateHelperFromBytes?: number
  /** The workspace's file states, if the caller already loaded them (saves a second read). */
  previous?: Map<PathKey, ScannedFile>
}

/** After a cancel request, how long the worker gets to stop by itself (and remove its temp file) before it is terminated. */
const CANCEL_GRACE_MS = 1000
/**
 * A scan worker starts its deflate helper once it has deflated this much itself: a thread start
 * costs about as much CPU as deflating a 100-file edit's few megabytes. So a first
 * capture starts it early, and a small capture in a process of its own (an agent's hook) never does.
 */
const DEFLATE_HELPER_FROM_BYTES = 8 * 1024 * 1024

const cancelledError = (): RetraceError => new RetraceError('CANCELLED', 'The workspace scan was cancelled; nothing was recorded.')

/**
 * Start the scan worker now if none is idle, so its start-up overlaps whatever the caller does
 * before scanning (loading the file states). Optional: a scan starts one itself.
 */
export function warmScanWorker(workerPath: string = scanWorkerPath()): void {
  scanWorkers.warm(workerPath)
}

/** End the scan workers kept between scans (a process that scans once in a while need not keep one). */
export function closeIdleScanWorkers(): Promise<void> {
  return scanWorkers.close()
}

/**
 * Scan a workspace folder off the main thread: every file and link (never followed), hashed,
 * its content in the blob store, version-control metadata (`.git`, `.hg`…) and git-ignored
 * paths left out. Files whose stat matches the previous scan are not read again. Only a
 * completed scan updates `file_states`; a cancelled or failed one leaves it as it was.
 */
export async function scanWorkspace(options: ScanOptions): Promise<ScanResult> {
  const started = performance.now()
  const root = resolveReadableFolder(options.root)
  if (options.signal?.aborted) throw cancelledError()
  const workerPath = options.workerPath ?? scanWorkerPath()
  warmScanWorker(workerPath) // starts while the file states load
  const limits = { ...DEFAULT_SCAN_LIMITS, ...options.limits }
  const previous = options.previous ?? options.store.fileStates.load(options.workspaceId)
  const cached = [...previous]
  const dictionary = options.blobs.dictionaries.ofWorkspace(options.workspaceId)
  const input: ScanInput = {
    root,
    tempDir: options.blobs.tempDir,
    inlineMaxBytes: INLINE_MAX_BYTES,
    maxFiles: limits.maxFiles,
    maxFileBytes: limits.maxFileBytes,
    racyWindowMs: options.racyWindowMs ?? RACY_WINDOW_MS,
    cache: cacheColumns(cached),
    deflateDictionary: { current: dictionary?.bytes ?? null, bytes: DICTIONARY_BYTES, sampleBytes: DICTIONARY_SAMPLE_BYTES },
    deflateWorker: options.deflateWorkerPath === undefined ? deflateWorkerPath() : options.deflateWorkerPath,
    deflateHelperFromBytes: options.deflateHelperFromBytes ?? DEFLATE_HELPER_FROM_BYTES,
    flow: new SharedArrayBuffer(4)
  }
  const collector = new ScanCollector(options.store.transaction, options.blobs, cached, {
    current: dictionary?.id ?? null,
    adopt: (bytes) => options.blobs.dictionaries.adopt(options.workspaceId, bytes)
  })
  const done = await runWorker(scanWorkers.take(workerPath), input, collector, options)

  options.onProgress?.({ phase: 'saving', ...progressOf(done.counts) })
  options.store.fileStates.save(options.workspaceId, previous, collector.files, { racy: collector.racy, complete: !done.truncated })
  options.onProgress?.({ phase: 'done', ...progressOf(done.counts) })
  return {
    files: collector.files,
    skipped: collector.skipped,
    truncated: done.truncated,
    stats: { ...done.counts, ms: Math.round(performance.now() - started) }
  }
}

const progressOf = (counts: WireCounts): Omit<ScanProgress, 'phase'> => ({ filesSeen: counts.filesSeen, filesHashed: counts.filesHashed, bytesHashed: counts.bytesHashed })

/** The previous scan in the column form the worker compares with `lstat` (entry i is `entries[i]`). */
function cacheColumns(entries: [PathKey, ScannedFile][]): CacheColumns {
  const columns: CacheColumns = {
    keys: entries.map(([key]) => key).join('\0'),
    kinds: new Uint8Array(entries.length),
    sizes: new Float64Array(entries.length),
    modes: new Uint32Array(entries.length),
    mtimeNs: new BigInt64Array(entries.length),
    ctimeNs: new BigInt64Array(entries.length),
    inos: new BigUint64Array(entries.length)
  }
  for (const [i, [, file]] of entries.entries()) {
    columns.kinds[i] = file.kind === 'file' ? 0 : 1
    columns.sizes[i] = file.size
    columns.modes[i] = file.mode
    columns.mtimeNs[i] = BigInt.asIntN(64, file.mtimeNs)
    columns.ctimeNs[i] = BigInt.asIntN(64, file.ctimeNs)
    columns.inos[i] = BigInt.asUintN(64, file.ino)
  }
  return columns
}

/**
 * Run one scan on `worker` to completion, storing its batches as they arrive. Settles only once
 * the worker has stopped using the workspace: after `done` (it is then idle, and goes back to
 * the pool) or, on any failure or cancel, after it has exited.
 */
function runWorker(worker: ScanWorker, input: ScanInput, collector: ScanCollector, options: ScanOptions): Promise<{ truncated: boolean; counts: WireCounts }> {
  return new Promise((resolve, reject) => {
    let outcome: { ok: true; truncated: boolean; counts: WireCounts } | { ok: false; error: Error } | null = null
    let graceTimer: NodeJS.Timeout | undefined
    const storedBatches = new Int32Array(input.flow)

    const detach = (): void => {
      clearTimeout(graceTimer)
      options.signal?.removeEventListener('abort', onAbort)
      worker.thread.off('message', onMessage)
      worker.thread.off('error', onError)
      worker.thread.off('exit', onExit)
    }
    // The first outcome wins. A failed or cancelled worker is terminated, and the promise
    // settles when it has exited, so no temp file is still being written behind the caller's back.
    const fail = (error: Error): void => {
      outcome ??= { ok: false, error }
      void worker.thread.terminate()
    }
    const onAbort = (): void => {
      if (outcome) return
      outcome = { ok: false, error: cancelledError() }
      worker.thread.postMessage({ type: 'cancel' } satisfies ParentMessage)
      Atomics.notify(storedBatches, 0) // wake a worker waiting for room, so it sees the cancel now
      graceTimer = setTimeout(() => void worker.thread.terminate(), CANCEL_GRACE_MS)
    }
    const onMessage = (message: WorkerMessage): void => {
      if (outcome) {
        if (message.type === 'batch') collector.discard(message.files)
        if (message.type === 'cancelled' || message.type === 'done') void worker.thread.terminate()
        return
      }
      try {
        handle(message)
      } catch (error) {
        fail(error instanceof Error ? error : new Error(String(error)))
      }
    }
    const onError = (error: Error): void => fail(new RetraceError('IO_ERROR', `The workspace scan of ${input.root} failed: ${error.message}`))
    const onExit = (): void => {
      detach()
      const final = outcome ?? { ok: false, error: new RetraceError('IO_ERROR', `The workspace scan of ${input.root} stopped unexpectedly.`) }
      if (final.ok) resolve(final)
      else reject(final.error)
    }
    const succeed = (result: { truncated: boolean; counts: WireCounts }): void => {
      outcome = { ok: true, ...result }
      detach()
      scanWorkers.release(worker)
      resolve(result)
    }

    options.signal?.addEventListener('abort', onAbort, { once: true })
    worker.thread.on('message', onMessage)
    worker.thread.on('error', onError)
    worker.thread.on('exit', onExit)
    worker.thread.postMessage({ type: 'scan', input } satisfies ParentMessage)

    function handle(message: WorkerMessage): void {
      switch (message.type) {
        case 'progress':
          options.onProgress?.({ phase: 'scanning', ...progressOf(message) })
          return
        case 'batch':
          collector.accept(message.files, message.buffer, message.order, message.dictionary)
          Atomics.add(storedBatches, 0, 1)
          Atomics.notify(storedBatches, 0)
          return
        case 'done':
          collector.addSkipped(message.skipped)
          succeed({ truncated: message.truncated, counts: message.counts })
          return
        case 'cancelled':
          fail(cancelledError())
          return
        case 'error': {
          // A full disk is the store's (the scan only reads the workspace, and writes large files' content to the store).
          if (isDiskFull(message)) return fail(new RetraceError('IO_ERROR', `The workspace scan stopped: ${diskFullMessage(input.tempDir)}`))
          const where = message.key === null ? input.root : displayPath(message.key as PathKey)
          fail(new RetraceError('IO_ERROR', `The workspace scan could not read ${where}: ${message.message}`))
        }
      }
    }
  })
}
