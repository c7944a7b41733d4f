/**
 * Messages between the importer (parse-thread.ts, main thread) and its parse thread
 * (import-parse-worker.mts). Types only.
 */
import type { ParsedChunk, ParseJob } from './parse-chunks'

export type ToParseThread =
  /** Read and parse a file; its chunks come back in order, after those of earlier jobs. */
  | { type: 'job'; id: number; job: ParseJob; lineCostMb: number }
  /** The importer took chunks of so many bytes of lines: the thread may send as many more. */
  | { type: 'credit'; bytes: number }

export type FromParseThread = { type: 'chunk'; id: number; chunk: ParsedChunk } | { type: 'failed'; id: number; message: string }
