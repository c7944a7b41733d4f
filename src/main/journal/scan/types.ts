import type { PathKey } from '../../fs/paths'
import type { FileState } from '../../store/repositories/file-states'

/** What the scanner records of one workspace entry (a `file_states` row). Folders are implied by the paths in them. */
export type ScannedFile = FileState

export interface ScanLimits {
  /** Stop after recording this many files and report `truncated`. */
  maxFiles: number
  /** Files larger than this are skipped with a reason, never silently. */
  maxFileBytes: number
}

export const DEFAULT_SCAN_LIMITS: Readonly<ScanLimits> = {
  maxFiles: 300_000,
  maxFileBytes: 4 * 1024 ** 3
}

/**
 * `scanning`: the worker walks and hashes; `saving`: the scan is complete and the stat cache is
 * being written; `done`: the result is about to be returned.
 */
export type ScanPhase = 'scanning' | 'saving' | 'done'

export interface ScanProgress {
  phase: ScanPhase
  filesSeen: number
  filesHashed: number
  bytesHashed: number
}

/**
 * An entry the scan saw but did not record. A caller comparing scans must treat these paths
 * (and, for a folder, everything under it) as unknown, not as deleted.
 */
export interface ScanSkip {
  /** For people (UTF-8, U+FFFD for bytes that are not). */
  path: string
  /** Lossless identity of the path. */
  key: PathKey
  /** True when a whole folder could not be read. */
  folder: boolean
  reason: string
}

export interface ScanStats {
  /** Files, links and special files the walk reached (ignored paths not counted). */
  filesSeen: number
  /** Files and links whose content was read and hashed in this scan. */
  filesHashed: number
  bytesHashed: number
  /** Files and links whose hash came from the stat cache without reading them. */
  reusedFromCache: number
  ms: number
}

export interface ScanResult {
  files: Map<PathKey, ScannedFile>
  skipped: ScanSkip[]
  /** The scan stopped at `maxFiles`: `files` is incomplete, and says so. */
  truncated: boolean
  stats: ScanStats
}
