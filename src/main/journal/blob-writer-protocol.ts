/**
 * Messages between the blob store and its writer threads (blob-writers.ts, blob-writer-worker.mts).
 * The worker imports only the types of this file: it runs without a bundler under vitest.
 */

/** Write one inline blob, as stored (raw or raw-deflated), to a new file: verified, then written. */
export interface WriteRequest {
  kind: 'write'
  id: number
  /** Absolute path of the file to create; it must not exist (O_EXCL), and is never a link (O_NOFOLLOW). */
  target: Uint8Array
  /** Set exactly (fchmod), whatever the process's umask. */
  mode: number
  /** The blob's sha256: the decoded content must hash to it, or nothing is left at `target`. */
  hash: string
  encoding: 'raw' | 'deflate'
  data: Uint8Array
  /** The preset dictionary `data` was deflated with (shared memory: not copied per message). */
  dictionary?: Uint8Array
  /** fsync before closing; false when the caller makes many files durable at once (see file-system-sync.ts). */
  fsync: boolean
}

/** Flush the file system holding `path` (syncfs; see file-system-sync.ts): started here, so its cost is not the caller's thread's. */
export interface SyncRequest {
  kind: 'sync'
  id: number
  /** The absolute path of the program (see file-system-sync.ts). */
  program: string
  path: string
}

export type WriterRequest = WriteRequest | SyncRequest

export type WriterReply =
  | { id: number; ok: true }
  /** `corrupt`: the stored bytes cannot be decoded or do not hash to the blob. `io`: the file could not be written, or the file system flushed. */
  | { id: number; ok: false; kind: 'corrupt' | 'io'; message: string; code?: string }
