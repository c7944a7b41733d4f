import type { FsOps } from '../workspace-fs'

/**
 * Faults and tuning a test runs rewinds under; the app never sets any. Given to RewindService's
 * constructor, so the options of a rewind the app applies carry only what a user chose.
 */
export interface RewindFaultPlan {
  /** The file-system calls a rewind makes (a test wraps them to fail or count). */
  ops?: FsOps
  /** Runs after each completed step (a test edits a file mid-rewind, or kills the process). */
  afterStep?: (index: number) => void
  /** From how many written files a rewind is replaced on threads (apply.ts BATCH_FROM_WRITES). */
  batchFrom?: number
  /** A lane's Nth file-system call fails with `code`, or kills the process ('KILL'). */
  threadFault?: { lane: number; call: number; code: string }
  /** The lanes' Nth flush fails with `code`, or kills the process ('KILL'). */
  flushFault?: { flush: number; code: string }
}
