/**
 * Messages between `scan.ts` (main thread) and `scan-worker.mts` (and its deflate helper). Types
 * only: the workers `import type` it, which Node erases.
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

/**
 * The previous scan, column by column: entry `i` is the `i`-th key of `keys` with `kinds[i]`,
 * `sizes[i]`… Typed arrays and one string copy into the worker in a few milliseconds, where a
 * Map of 10,000 objects with bigints took tens. The worker compares these with `lstat` and
 * answers a match with the index alone (see `order` in `WorkerMessage`).
 */
export interface CacheColumns {
  /** Path keys joined by NUL, which no path contains. Empty when there are no entries. */
  keys: string
  /** 0: file, 1: symlink. */
  kinds: Uint8Array
  sizes: Float64Array
  modes: Uint32Array
  mtimeNs: BigInt64Array
  /** `RACY_CTIME_NS` (-1) for an entry that must be re-read: no real ctime matches it. */
  ctimeNs: BigInt64Array
  inos: BigUint64Array
}

/** One scan's input, sent with the `scan` message (a worker runs many scans, one at a time). */
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
  cache: CacheColumns
  /**
   * The workspace's preset deflate dictionary (`current`), or none yet: then the scan builds one
   * of `bytes` from the first `sampleBytes` of the text files it reads (see deflate-dictionary.ts).
   */
  deflateDictionary: { current: Uint8Array | null; bytes: number; sampleBytes: number }
  /**
   * The script of the deflate helper thread (deflate-worker.mts) the scan worker starts to pack
   * inline content beside its walk; null: it packs everything itself.
   */
  deflateWorker: string | null
  /** Bytes the scan worker deflates itself (over all its scans) before it starts the helper. */
  deflateHelperFromBytes: number
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
  /** Deflated with the workspace's dictionary (the one given, or the one a batch of this scan carried). */
  withDictionary?: true
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

/**
 * Worker → parent. Ordered: every `batch` arrives before `done`. Each stored batch is
 * acknowledged through `ScanInput.flow`. After `done` the worker is idle and may be sent the
 * next `scan`; after anything else it is terminated.
 */
export type WorkerMessage =
  | ({ type: 'progress' } & WireCounts)
  /**
   * `buffer` is transferred, not copied; null when no file of the batch needed content.
   * `order` lists the batch's entries in walk order: `n >= 0` is cache entry `n`, unchanged;
   * `-1 - j` is `files[j]`. Without `order` the entries are `files`, in order. `dictionary`: one
   * this scan just built, to store before the batch's files (those `withDictionary` need it).
   */
  | { type: 'batch'; files: WireFile[]; buffer: ArrayBuffer | null; order?: Int32Array; dictionary?: Uint8Array }
  | { type: 'done'; skipped: WireSkip[]; truncated: boolean; counts: WireCounts }
  | { type: 'cancelled' }
  | { type: 'error'; key: string | null; message: string; code?: string }

/** Parent → worker: start a scan (only when idle), or cancel the running one (polled between files and between chunks of a large file). */
export type ParentMessage = { type: 'scan'; input: ScanInput } | { type: 'cancel' }

/**
 * Scan worker → its deflate helper. `options` applies to every `pack` after it (the workspace's
 * dictionary arrives with it); `bytes` of a `pack` is a copy of one file's content, transferred.
 */
export type DeflateRequest = { type: 'options'; deflate: { level: number; memLevel: number }; dictionary: Uint8Array | null } | { type: 'pack'; id: number; bytes: ArrayBuffer }

/** Deflate helper → scan worker: the raw-deflated bytes of `pack` request `id` (transferred). */
export interface DeflateReply {
  id: number
  packed: Uint8Array
}

/**
 * The deflate helper's `workerData`: `ready[0]` is set to 1 once its script has loaded. Shared
 * memory, so the scan worker can look without waiting for a message (its walk seldom yields).
 */
export interface DeflateHelperData {
  ready: Int32Array
}
