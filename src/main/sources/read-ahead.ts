import { statSync } from 'node:fs'
import type { HistoryFile, SourceAdapter } from './adapter'
import { planFileImport, unchangedSince, type FilePlan } from './file-importer'
import type { ImportBatch } from './import-batch'
import { parseFileChunks, type ParsedChunk, type ParseJob, type ParserFactory } from './parse-thread/parse-chunks'
import { type FileStat } from './file-stat'
import { ParseThread, ParseThreadStopped } from './parse-thread/parse-thread'
import { MAIN_THREAD_LINE_COST_MB } from './parse-thread/line-cost'
import type { ImportDeps } from './import-deps'
import { adaptersFor } from './registry'

/**
 * Files planned (and handed to the parse thread) ahead of the one being written: more than a
 * batch of small files (import-batch.ts), so the thread parses the next batch while the main
 * thread commits one. The thread's credit bounds what it parses ahead in bytes.
 */
const PLAN_AHEAD = 256
/**
 * Below this much to read, an import parses on the main thread: a live step's few new lines
 * would wait longer for a message to the thread and back (or for a thread to start).
 */
const THREAD_FROM_BYTES = 4 * 1024 * 1024
/**
 * Once a large import has a parse thread (`retrace import --all`: workspace after workspace),
 * its later workspaces use it from this much on: most of 300 workspaces hold less than 4 MB
 * each, and parsing those on the main thread left the thread idle while the main thread, which
 * also writes, was the import's bound (5 of 37 s of a 5,000-session import).
 */
export const THREAD_KEPT_FROM_BYTES = 256 * 1024

export interface ImportEntry {
  adapter: SourceAdapter
  file: HistoryFile
}

/** What is left to import of one file (null: nothing), and its chunks as they are parsed. */
export interface ReadFile {
  plan: FilePlan | null
  chunks: AsyncIterable<ParsedChunk> | Iterable<ParsedChunk>
}

/**
 * The files of one import, in the order they are written, planned ahead (planFileImport) and,
 * for a large import, read and parsed on the parse thread while the main thread writes the
 * chunks before them: one core parses, the other writes the store.
 */
export class ReadAhead {
  private readonly plans: ({ plan: FilePlan | null; id: number | null } | { error: unknown })[] = []
  private readonly thread: ParseThread | null

  constructor(
    private readonly deps: ImportDeps,
    private readonly workspace: { id: number },
    private readonly entries: readonly ImportEntry[],
    private readonly batch: ImportBatch,
    bytesToRead: number,
    /** The parse thread's heap (tests make it small, to see large lines go to threads of their own). */
    parseHeapMb?: number,
    /** A test's fault: threads started for a large line exit as they start reading. */
    private readonly largeLineThreadsExit = false,
    /** The bytes from which a thread parses (less within an import that has one already). */
    threadFromBytes = THREAD_FROM_BYTES
  ) {
    this.thread = bytesToRead >= threadFromBytes && entries.some(({ adapter }) => adapter.kind !== 'snapshot') ? ParseThread.take(parseHeapMb) : null
  }

  /** Whether this import's files are parsed on a thread. */
  get threaded(): boolean {
    return this.thread !== null
  }

  /** Entry `index` (a line source's file): its plan and chunks. Throws what planning it threw. */
  take(index: number): ReadFile {
    this.planUpTo(index + PLAN_AHEAD)
    const planned = this.plans[index]
    if (!planned) throw new Error(`No import entry ${index}.`)
    if ('error' in planned) throw planned.error
    const { plan, id } = planned
    if (!plan) return { plan, chunks: [] }
    const job = jobOf(plan)
    return { plan, chunks: this.thread && id !== null ? this.fromThread(this.thread, id, job) : this.here(job) }
  }

  /**
   * A file's chunks from the parse thread. If the thread stops while it reads this file (out of
   * memory, a crash), the file fails with ParseThreadStopped: what was taken of it stays, and the
   * import goes on with the next file. A file after it that the thread had not read whole is
   * parsed here, from the end of the last chunk taken and with the parser's state there.
   */
  private async *fromThread(thread: ParseThread, id: number, job: ParseJob): AsyncGenerator<ParsedChunk> {
    let rest = job
    let largeLineHeapMb: number | null = null
    try {
      for await (const chunk of thread.chunks(id)) {
        rest = restAfter(job, chunk)
        yield chunk
        if (chunk.largeLine) {
          largeLineHeapMb = chunk.largeLine.heapMb
          break
        }
      }
    } catch (error) {
      if (!thread.stopped) throw error // this file could not be read: reported as such
      if (thread.stoppedOn(id)) throw new ParseThreadStopped(job.path, `${thread.stopped.message}, at or after byte ${rest.start}`)
      yield* this.here(rest)
      return
    }
    if (largeLineHeapMb !== null) yield* this.onThreadOfItsOwn(rest, largeLineHeapMb)
  }

  /** A file's chunks parsed on this thread; a line costing more than this thread may spend goes, with the rest of its file, to a thread of its own. */
  private async *here(job: ParseJob): AsyncGenerator<ParsedChunk> {
    for await (const chunk of parseFileChunks(job, parserOf, MAIN_THREAD_LINE_COST_MB)) {
      yield chunk
      if (chunk.largeLine) {
        yield* this.onThreadOfItsOwn(restAfter(job, chunk), chunk.largeLine.heapMb)
        return
      }
    }
  }

  /** The rest of a file, from a large line, on a thread with a heap sized for that line. */
  private async *onThreadOfItsOwn(job: ParseJob, heapMb: number): AsyncGenerator<ParsedChunk> {
    const thread = ParseThread.forLargeLine(heapMb, this.largeLineThreadsExit)
    try {
      yield* this.fromThread(thread, thread.submit(job), job)
    } finally {
      thread.release()
    }
  }

  /** Done (or stopped): the thread is kept for the next import if everything it read was taken. */
  close(): void {
    this.thread?.release()
  }

  private planUpTo(end: number): void {
    for (let index = this.plans.length; index < Math.min(end, this.entries.length); index++) {
      const entry = this.entries[index]
      if (!entry || entry.adapter.kind === 'snapshot') {
        this.plans.push({ plan: null, id: null })
        continue
      }
      try {
        const plan = planFileImport(this.deps, this.workspace, entry.file, this.batch, entry.adapter.segments?.bind(entry.adapter))
        const id = plan && this.thread ? this.thread.submit(jobOf(plan)) : null
        this.plans.push({ plan, id })
      } catch (error) {
        this.plans.push({ error })
      }
    }
  }
}

function jobOf(plan: FilePlan): ParseJob {
  return { source: plan.file.source, path: plan.file.path, start: plan.start, parserState: plan.known?.parserState ?? null, ...(plan.before?.length ? { before: plan.before } : {}) }
}

/** What is left of a job after one of its chunks: the rest of that segment and those after it, or of the file. */
export function restAfter(job: ParseJob, chunk: ParsedChunk): ParseJob {
  const parserState = JSON.parse(chunk.parserStateJson) as unknown
  const before = job.before ?? []
  const path = chunk.segment
  const index = path === undefined ? -1 : before.findIndex((read) => read.path === path)
  if (path === undefined || index === -1) return { ...job, start: chunk.end, parserState, before: [] }
  return { ...job, parserState, before: [{ path, start: chunk.end }, ...before.slice(index + 1)] }
}

const parserOf: ParserFactory = (source, state, path) => {
  const [adapter] = adaptersFor(source)
  if (!adapter || adapter.kind === 'snapshot') throw new Error(`No line parser for ${source}.`)
  return adapter.createParser(state, { path })
}

/**
 * The entries that may hold something new, and about how many bytes they add: files read to
 * their end before and unchanged since (same file, size and time: one stat each, no open) are
 * done already, and left out (`onUnchanged` is told).
 */
export function withoutUnchanged(
  deps: ImportDeps,
  workspaceId: number,
  entries: readonly ImportEntry[],
  onUnchanged: (path: string) => void,
  /** Stats taken by discovery a moment before, when it took them. */
  statOf: (path: string) => FileStat | undefined = () => undefined
): { entries: ImportEntry[]; bytesToRead: number } {
  const progress = deps.store.importFiles.progressOf(workspaceId)
  let bytesToRead = 0
  const left = entries.filter(({ adapter, file }) => {
    if (adapter.kind === 'snapshot') return true
    let stat = statOf(file.path)
    try {
      stat ??= statSync(file.path)
    } catch {
      return true // the import reports it
    }
    const known = progress.get(`${file.source}\0${file.path}`)
    if (known && unchangedSince(known, stat)) {
      onUnchanged(file.path)
      return false
    }
    bytesToRead += Math.max(0, stat.size - (known?.offset ?? 0)) + (known ? 0 : segmentBytes(file))
    return true
  })
  return { entries: left, bytesToRead }
}

/** The earlier segments a file's first import reads too (HistoryFile.segments). */
function segmentBytes(file: HistoryFile): number {
  let bytes = 0
  for (const piece of file.segments?.pieces ?? []) {
    try {
      bytes += statSync(piece.path).size
    } catch {
      // gone: its import reports it
    }
  }
  return bytes
}
