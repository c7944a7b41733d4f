/**
 * Messages between the blob store and its writer threads (blob-writers.ts, blob-writer-worker.mts).
 * The worker imports only the types of this file: it runs without a bundler under vitest.
 */
import type { MessagePort } from 'node:worker_threads'

/** The decoded content of an inline blob, as stored (raw or raw-deflated), and the hash it must have. */
export interface StoredContent {
  /** The blob's sha256: the decoded content must hash to it, or nothing is left at the target. */
  hash: string
  encoding: 'raw' | 'deflate'
  data: Uint8Array
  /** The preset dictionary `data` was deflated with (shared memory: not copied per message). */
  dictionary?: Uint8Array
}

/** Write one inline blob to a new file: verified, then written. */
export interface WriteRequest extends StoredContent {
  kind: 'write'
  id: number
  /** Absolute path of the file to create; it must not exist (O_EXCL), and is never a link (O_NOFOLLOW). */
  target: Uint8Array
  /** Set exactly (fchmod), whatever the process's umask. */
  mode: number
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

/**
 * Replace files of a large rewind on this thread, one lane of several (rewind/threaded-replace.ts):
 * write each job's temp file; once a flush of the file system covers it, check that the target
 * still holds what the plan saw, and rename the temp over it. Jobs arrive on `jobs` in chunks
 * (arrays), then `null`. The lanes of one rewind coordinate through `shared` (see ReplaceLayout).
 * Replies once, when every job is replaced or the lanes stopped.
 */
export interface ReplaceRequest {
  kind: 'replace'
  id: number
  lane: number
  shared: SharedArrayBuffer
  layout: ReplaceLayout
  jobs: MessagePort
  /** The workspace root (real path): flushed with `program`, and the limit of the link check. */
  root: string
  /** The syncfs program (see file-system-sync.ts). */
  program: string
  /** Tests: the lane's file-system call number `call` fails with `code`, or kills the process if `code` is 'KILL'. */
  fault?: { call: number; code: string }
}

/** Int32 slots of the shared buffer of a rewind's lanes. */
export interface ReplaceLayout {
  /** Non-zero: every lane stops at once (a lane failed, or the rewind did). */
  stop: number
  /**
   * Non-zero once the rewind may change targets (it is recorded, and the steps that must come
   * first are done). Until then lanes write and flush temps, and rename nothing.
   */
  go: number
  /** Counts events lanes may be waiting for (a flush done, jobs sent, a stop): Atomics.wait on it. */
  events: number
  /** 1 while a lane is flushing the file system. */
  flushing: number
  /** A lane that could do other work flushes only once this many temps wait for a flush; doubles after each. */
  flushBatch: number
  /** Per lane: temps written, temps covered by a completed flush, temps renamed into place (all in job order). */
  lanes: { written: number; flushed: number; renamed: number }[]
}

/** The state at a target a replace requires just before its rename: null, nothing there. */
export interface ExpectedFile {
  hash: string
  mode: number
  /** The lstat fields the plan saw (see workspace-fs.ts StatStamp): if all still match, the content does too. */
  stamp: { dev: bigint; ino: bigint; mode: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint } | null
}

export interface ReplaceJob extends StoredContent {
  /** Absolute path the content replaces. */
  target: Uint8Array
  /** The temp file beside it, created with O_EXCL. */
  temp: Uint8Array
  mode: number
  expected: ExpectedFile | null
}

export type WriterRequest = WriteRequest | SyncRequest | ReplaceRequest

/**
 * `corrupt`: the stored bytes cannot be decoded or do not hash to the blob. `io`: a file could not
 * be written, renamed or checked, or the file system flushed. `changed`: a target is not what the
 * plan saw. `refused`: a folder on a target's path is a symbolic link. `stopped`: another lane failed.
 */
export type FailureKind = 'corrupt' | 'io' | 'changed' | 'refused' | 'stopped'

export type WriterReply =
  | { id: number; ok: true }
  /** `job`: the index, in its lane, of the replace job that failed. */
  | { id: number; ok: false; kind: FailureKind; message: string; code?: string; job?: number }
