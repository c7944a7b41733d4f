/**
 * Messages between `scan.ts` (main thread) and `scan-worker.mts`. Types only: the worker may
 * import nothing from the project at run time, and `import type` is erased.
 *
 * Paths cross as keys: the raw path bytes as a latin1 string (one char per byte, lossless,
 * cheap to structured-clone), the same encoding as `PathKey`.
 */

import type { ScannedFile } from './types'

export type WireKind = ScannedFile['kind']

/** One row of the previous scan, as the worker compares it with `lstat`: a ScannedFile keyed by its path bytes. */
export interface CacheEntry extends Omit<ScannedFile, 'path'> {
  key: string
}

/** `workerData` of the scan worker. */
export interface ScanInput {
  /** Absolute real path of the workspace folder. */
  root: string
  /** `BlobStore.tempDir`: large content is written here as gzip, then adopted by the parent. */
  tempDir: string
  inlineMaxBytes: number
  maxFiles: number
  maxFileBytes: number
  /**
   * A file whose ctime is this close to the moment it was read may still change within the
   * same timestamp tick without changing its stat; it is marked `racy` so the next scan
   * re-reads it instead of trusting the cache.
   */
  racyWindowMs: number
  cache: Map<string, CacheEntry>
  /**
   * Flow control, one Int32 shared with the parent: the number of batches it has stored. The
   * worker keeps at most a few batches in flight, so a fast disk and a slow database cannot
   * pile gigabytes of content up in the parent's message queue.
   */
  flow: SharedArrayBuffer
}

/**
 * A recorded file. `source` says where its content is: `cache` (unchanged, nothing to store),
 * `inline` (bytes `offset`…`offset + size` of the batch buffer), `temp` (a fsynced gzip file
 * at `temp`, to be adopted with `BlobStore.adoptTempFile`).
 */
export interface WireFile extends CacheEntry {
  source: 'cache' | 'inline' | 'temp'
  offset: number
  /** Inline only: the content at `offset` is raw-deflated to this many bytes (null: raw, `size` bytes). */
  packed: number | null
  temp: string | null
  racy: boolean
}

export interface WireSkip {
  key: string
  folder: boolean
  reason: string
}

export interface WireCounts {
  filesSeen: number
  filesHashed: number
  bytesHashed: number
  reusedFromCache: number
}

/** Worker → parent. Ordered: every `batch` arrives before `done`. Each stored batch is acknowledged through `ScanInput.flow`. */
export type WorkerMessage =
  | ({ type: 'progress' } & WireCounts)
  /** `buffer` is transferred, not copied; null when no file of the batch needed content. */
  | { type: 'batch'; files: WireFile[]; buffer: ArrayBuffer | null }
  | { type: 'done'; skipped: WireSkip[]; truncated: boolean; counts: WireCounts }
  | { type: 'cancelled' }
  | { type: 'error'; key: string | null; message: string }

/** Parent → worker. The worker polls for it between files and between chunks of a large file. */
export type ParentMessage = { type: 'cancel' }
