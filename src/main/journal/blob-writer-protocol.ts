/**
 * Messages between the blob store and its writer threads (blob-writers.ts, blob-writer-worker.mts).
 * Types only: the worker `import type`s them, which Node erases. Each thread's first message,
 * unasked, is `{ id: READY_REPLY_ID, ok: true }` once its script has loaded (shared-constants.mts).
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

/**
 * Flush the file system holding `path` (syncfs; see file-system-sync.ts). Sent to the pool's
 * flusher thread, which keeps one small helper process running the program (see FlushHelper in
 * blob-writer/flush-helper.mts): starting a process from a large one costs tens of milliseconds.
 */
export interface SyncRequest {
  kind: 'sync'
  id: number
  /** The absolute path of the program (see file-system-sync.ts). */
  program: string
  /** Raw bytes: a folder name need not be UTF-8. */
  path: Uint8Array
}

/**
 * Start the flusher's helper process for `program` now, while nothing waits on it: a process
 * start from a large process takes tens of milliseconds and holds its memory map meanwhile
 * (see FlushHelper). Sent when a large rewind is planned.
 */
export interface PrepareFlushesRequest {
  kind: 'prepare-flushes'
  id: number
  program: string
}

/**
 * Serve the flushes one rewind's lanes ask for (see ReplaceLayout's flush slots), on the
 * flusher thread, until `serving` is cleared. Replies then, or at the first failed flush
 * (which also stops the lanes), with the program's complaint.
 */
export interface ServeFlushesRequest {
  kind: 'serve-flushes'
  id: number
  shared: SharedArrayBuffer
  layout: ReplaceLayout
  program: string
  /** The workspace root (real path, raw bytes). */
  root: Uint8Array
  /** Tests: flush number `flush` fails with `code`, or kills the process if `code` is 'KILL'. */
  fault?: { flush: number; code: string }
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
  /** The workspace root (real path): the limit of the link check. */
  root: string
  /** The root's device and inode when the rewind began: checked before and after each change (a root swapped for a link stops the lane). */
  rootIdentity: { dev: bigint; ino: bigint }
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
  /** 1 from when a lane asks for a flush until the flusher has published what it covered. */
  flushing: number
  /** A lane that could do other work asks for a flush only once this many temps wait for one; doubles after each. */
  flushBatch: number
  /** Flushes asked for (a lane adds one and notifies); the flusher serves each once. */
  flushAsked: number
  /** Non-zero while the flusher serves this rewind; cleared (then flushAsked bumped, to wake it) once every lane replied. */
  serving: number
  /**
   * Per lane: temps written; temps the flush asked for covers (the `written` counts when it was
   * asked); temps covered by a completed flush; temps renamed into place (all in job order).
   */
  lanes: { written: number; covering: number; flushed: number; renamed: number }[]
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
  /**
   * Where the file being replaced is linked just before the rename (rewind/set-aside.ts), so
   * the rename frees nothing and the rewind does not wait for it; null when nothing is replaced.
   */
  aside: Uint8Array | null
}

export type WriterRequest = SyncRequest | ReplaceRequest | ServeFlushesRequest | PrepareFlushesRequest

/**
 * `corrupt`: the stored bytes cannot be decoded or do not hash to the blob. `io`: a file could not
 * be written, renamed or checked, or the file system flushed. `changed`: a target is not what the
 * plan saw. `refused`: a folder on a target's path is a symbolic link. `replaced`: the workspace
 * root's path no longer leads to the folder the rewind began in. `stopped`: another lane failed.
 */
export type FailureKind = 'corrupt' | 'io' | 'changed' | 'refused' | 'replaced' | 'stopped'

export type WriterReply =
  | { id: number; ok: true }
  /** `job`: the index, in its lane, of the replace job that failed. */
  | { id: number; ok: false; kind: FailureKind; message: string; code?: string; job?: number }
