import type { FileJournal } from '../journal/file-journal'
import type { Store } from '../store/store'
import type { Recorder } from '../transcripts/recorder'
import type { HistoryFile, SourceName } from './adapter'
import type { WatchFolder } from './history-watch'
import { INCOMPLETE_LINE_AFTER_MS } from './quiet-files'
import type { SuccessorLinks } from './successor-links'

export interface SkippedLine {
  file: string
  offset: number
  reason: string
}

/** Records of one kind the importer did not read (records.ts `UnreadRecord`), counted. */
export interface UnreadCount {
  source: SourceName
  agentVersion: string | null
  what: string
  count: number
  /** Where the first of them was seen. */
  example: { file: string; offset: number }
}

/** What an import did, summed over files (the CLI's JSON report). */
export interface ImportReport {
  files: number
  sessions: number
  messages: number
  toolCalls: number
  fileChanges: number
  /** Lines (or files) not imported. */
  skipped: SkippedLine[]
  /** File changes the history records, on lines that were imported, that could not be journaled (content unknown, outside the workspace…). */
  changesNotJournaled: SkippedLine[]
  unread: UnreadCount[]
}

export function emptyReport(): ImportReport {
  return { files: 0, sessions: 0, messages: 0, toolCalls: 0, fileChanges: 0, skipped: [], changesNotJournaled: [], unread: [] }
}

/** Count one unread record into a report (one entry per source, agent version and kind). */
export function countUnread(report: ImportReport, source: SourceName, file: string, record: { offset: number; what: string; agentVersion: string | null }): void {
  const known = report.unread.find((entry) => entry.source === source && entry.agentVersion === record.agentVersion && entry.what === record.what)
  if (known) known.count += 1
  else report.unread.push({ source, agentVersion: record.agentVersion, what: record.what, count: 1, example: { file, offset: record.offset } })
}

export interface ImportDeps {
  store: Store
  recorder: Recorder
  journal: FileJournal
  /** What an import settles once all of it is in (import-settling.ts): set, summaries wait for it. */
  settle?: SettleLater
}

/** What an import leaves to be settled once all of it is in (import-settling.ts). */
export interface SettleLater {
  readonly successors: SuccessorLinks
  /** A file whose summaries wait for their session: tried again at the end. */
  summariesWaiting(workspace: { id: number; path: string }, file: HistoryFile): void
}

/** How an import of a workspace's histories runs (ImportService). */
export interface ImportOptions {
  sources?: SourceName[]
  signal?: AbortSignal
  /** Files done of files found, with the one being read. */
  onProgress?: (progress: { done: number; total: number; file: string }) => void
  /** A file was read to its end (also during an import that is later cancelled). */
  onFileDone?: (path: string) => void
  /**
   * Report a last line left without its newline. Default: in one-shot processes (the CLI),
   * where nothing is followed and the line is not being written any more; live following
   * reports it once its file has been quiet for a while (see quiet-files.ts).
   */
  reportIncompleteLines?: boolean
  /**
   * `importAll`: a workspace it makes counts as opened just now (`retrace import --all`), or not
   * (false: a background round, which must not fill the recently opened with every folder).
   */
  markOpened?: boolean
}

/** How imports are paced: tests tune these (runtime/tuning.ts); the app runs with the defaults. */
export interface ImportTuning {
  /** A wait before each file read (0: none). */
  fileDelayMs: number
  /** The parse thread's heap in MB (undefined: parse-thread.ts's own). */
  parseHeapMb?: number
  /** A test's fault: threads started for one large line exit as they start reading. */
  largeLineThreadsExit?: boolean
  /** How long a last line must stay unfinished before it is reported (quiet-files.ts). */
  incompleteLineAfterMs: number
  /** How a running app's `import --all` re-checks what its history watch saw (watched-recheck.ts). */
  recheck: WatchedRecheckTuning
}

export interface WatchedRecheckTuning {
  /** A full pass at least this often, for what a watch can miss (a full inotify queue, a network file system). */
  fullPassEveryMs: number
  /** A test's fault: how folders are watched (one that throws: a watch that cannot start; one that never calls back: missed events). */
  watchFolder?: WatchFolder
}

/** The safety net's default: a stat of every file at least every ten minutes. */
export const FULL_PASS_EVERY_MS = 10 * 60_000

export const DEFAULT_IMPORT_TUNING: ImportTuning = { fileDelayMs: 0, incompleteLineAfterMs: INCOMPLETE_LINE_AFTER_MS, recheck: { fullPassEveryMs: FULL_PASS_EVERY_MS } }

/** Add one import's report to a running total (unread records of one kind counted together). */
export function addReport(total: ImportReport, report: ImportReport): void {
  total.files += report.files
  total.sessions += report.sessions
  total.messages += report.messages
  total.toolCalls += report.toolCalls
  total.fileChanges += report.fileChanges
  total.skipped.push(...report.skipped)
  total.changesNotJournaled.push(...report.changesNotJournaled)
  for (const entry of report.unread) {
    const known = total.unread.find((other) => other.source === entry.source && other.agentVersion === entry.agentVersion && other.what === entry.what)
    if (known) known.count += entry.count
    else total.unread.push({ ...entry })
  }
}
