import { createHash } from 'node:crypto'
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import type { SourceName } from '../adapter'
import type { FileStat } from '../file-stat'
import { jsonTextNestsDeeper, MAX_JSON_NESTING } from '../../transcripts/json-nesting'
import { isCompressed } from '../compressed-files'
import { DecodedLines } from '../decoded-lines'
import { largeLineText, MAX_LINE_BYTES, readCompleteLines, type ReadLine } from '../line-reader'
import { heapMbForLine, tooCostlyToParse, weighLine } from './line-cost'
import type { LineParser, SourceRecord } from '../records'

/**
 * Lines parsed and written together: one saved offset (and one savepoint of the batch's
 * transaction, see import-batch.ts). A chunk ends at 500 lines or once its lines hold 8 MB,
 * whichever comes first: what a chunk keeps in memory until its commit grows with its bytes, and
 * a line can hold tens of megabytes (a large tool result).
 */
const CHUNK_LINES = 500
const CHUNK_BYTES = 8 * 1024 * 1024
/** How much of a file's start identifies it (a file rewritten in place has other first bytes). */
export const HEAD_BYTES = 4096
/** How much of what comes just before an import's offset identifies what was read (a file cut short and grown again has other bytes there). */
export const TAIL_BYTES = 4096

/** One file to read from `start`, with its parser's state there (null: from the beginning). */
export interface ParseJob {
  source: SourceName
  path: string
  start: number
  parserState: unknown
  /** Earlier segments of the file's history read first, each from its `start` (HistoryFile.segments). */
  before?: SegmentRead[]
}

export interface SegmentRead {
  path: string
  start: number
}

/** Lines of one file parsed into records, and where the next chunk starts. */
export interface ParsedChunk {
  records: SourceRecord[]
  /** Where the chunk's lines start and where the next line starts. */
  start: number
  end: number
  lines: number
  /** The parser's state after the chunk (JSON): an import resumes from it at `end`. */
  parserStateJson: string
  /** sha256 of the file's first min(HEAD_BYTES, end) bytes. */
  head: string
  /** sha256 of the min(TAIL_BYTES, end) bytes before `end`. */
  tail: string
  stat: FileStat
  /**
   * Read to its end: a plain file's end is its size when it was opened; a compressed file's, the
   * end of its decoded content (on its last chunk), even after an unfinished last line: it
   * cannot be finished in that form (its agent decompresses it to write on).
   */
  complete: boolean
  /** Read from an earlier segment of the file (ParseJob.before), this one: offsets, hashes and stat are its. */
  segment?: string
  /** Set on a file's last chunk: bytes after `end` (an unfinished last line) when it was read. */
  unfinished?: number
  /**
   * Set on the last chunk read here when the line at `end` costs more memory to parse than this
   * thread may spend on one line (line-cost.ts): the rest of the file, from `end`, is for a
   * thread with a heap of `heapMb`.
   */
  largeLine?: { offset: number; bytes: number; heapMb: number }
}

/** Makes a source's line parser: what the importer's registry does (kept apart so a worker can load it alone). */
export type ParserFactory = (source: SourceName, state: unknown, path: string) => LineParser

/**
 * Read a file from the job's offset and parse its complete lines, a chunk at a time. Pure
 * reading and parsing, no store: it runs on the import's parse thread (import-parse-worker.mts)
 * or, for a small import, on the main thread. The file is opened read-only. A file always
 * gives at least one chunk (maybe empty), its last marked with `unfinished`. A compressed file
 * (compressed-files.ts) is read as its decoded bytes: offsets and hashes are over those.
 */
export async function* parseFileChunks(job: ParseJob, createParser: ParserFactory, lineCostMb: number): AsyncGenerator<ParsedChunk> {
  const parser = createParser(job.source, job.parserState, job.path)
  // The segments and the file are one history: one parser reads them in turn.
  for (const segment of job.before ?? []) {
    const last = yield* chunksOf(segment.path, segment.start, parser, true, lineCostMb)
    if (last.largeLine) return
  }
  yield* chunksOf(job.path, job.start, parser, false, lineCostMb)
}

/**
 * One file's chunks, from `start`; returns the last. An earlier segment is never read to a file's
 * end: the file follows it. A line costing more than `lineCostMb` to parse ends the chunks there
 * (ParsedChunk.largeLine).
 */
async function* chunksOf(path: string, from: number, parser: LineParser, segment: boolean, lineCostMb: number): AsyncGenerator<ParsedChunk, ParsedChunk> {
  const fd = openSync(path, 'r')
  try {
    const { dev, ino, size, mtimeMs } = fstatSync(fd)
    const stat = { dev, ino, size, mtimeMs }
    const content = isCompressed(path) ? decodedContent(path) : plainContent(fd, size)
    let records: SourceRecord[] = []
    let start = from
    let end = from
    let lines = 0
    const chunk = (): ParsedChunk => {
      const done: ParsedChunk = { records, start, end, lines, parserStateJson: JSON.stringify(parser.state() ?? null), head: content.head(end), tail: content.tail(end), stat, complete: !segment && content.complete(end), ...(segment ? { segment: path } : {}) }
      records = []
      start = end
      lines = 0
      return done
    }
    for await (const line of content.lines(from)) {
      if ('tooLong' in line) records.push({ kind: 'skipped', offset: line.offset, reason: `line of ${megabytes(line.tooLong)} is longer than the ${megabytes(MAX_LINE_BYTES)} a line may have, not imported` })
      else if ('bytes' in line) {
        const weight = weighLine(line.bytes)
        const refusal = tooCostlyToParse(line.bytes.length, weight)
        if (refusal) records.push({ kind: 'skipped', offset: line.offset, reason: refusal })
        else if (weight.costMb > lineCostMb) {
          const last = { ...chunk(), largeLine: { offset: line.offset, bytes: line.bytes.length, heapMb: heapMbForLine(weight) } }
          yield last
          return last
        } else {
          const text = largeLineText(line.bytes)
          if (text !== null) records.push(...recordsOfLine(parser, text, line.offset))
        }
      } else records.push(...recordsOfLine(parser, line.text, line.offset))
      end = line.end
      lines += 1
      if (lines >= CHUNK_LINES || end - start >= CHUNK_BYTES) yield chunk()
    }
    const last = segment ? chunk() : { ...chunk(), unfinished: Math.max(0, content.finalSize() - end) }
    yield last
    return last
  } finally {
    closeSync(fd)
  }
}

/** A file's content as parseFileChunks reads it: its lines, and what identifies what was read. */
interface Content {
  lines(start: number): AsyncIterable<ReadLine>
  head(end: number): string
  tail(end: number): string
  /** Read to its end (see ParsedChunk.complete) when the last line read ends at `end`. */
  complete(end: number): boolean
  /** The content's size once its lines were all read. */
  finalSize(): number
}

function plainContent(fd: number, size: number): Content {
  let head: { bytes: number; hash: string } | null = null
  return {
    lines: (start) => readCompleteLines(fd, start),
    head: (end) => {
      const bytes = Math.min(HEAD_BYTES, end)
      if (head?.bytes !== bytes) head = { bytes, hash: headHash(fd, bytes) }
      return head.hash
    },
    tail: (end) => tailHash(fd, end),
    complete: (end) => end === size,
    finalSize: () => fstatSync(fd).size
  }
}

function decodedContent(path: string): Content {
  const decoded = new DecodedLines(path, HEAD_BYTES, TAIL_BYTES)
  return {
    lines: (start) => decoded.lines(start),
    head: (end) => decoded.head(end),
    tail: (end) => decoded.tail(end),
    complete: () => decoded.size !== null,
    finalSize: () => decoded.size ?? 0
  }
}

/**
 * What one line gives. A line nested deeper than Retrace walks values recursively (validators,
 * serialisers, the window) is refused before a parser sees it: it is skipped like any malformed
 * line and the import goes on after it, instead of failing the file at the same line forever.
 */
function recordsOfLine(parser: LineParser, text: string, offset: number): SourceRecord[] {
  if (jsonTextNestsDeeper(text)) return [{ kind: 'skipped', offset, reason: `JSON nested more than ${MAX_JSON_NESTING} levels deep, not imported` }]
  return parser.feed(text, offset)
}

export function headHash(fd: number, bytes: number): string {
  return rangeHash(fd, 0, bytes)
}

/** sha256 of the min(TAIL_BYTES, end) bytes before `end`. */
export function tailHash(fd: number, end: number): string {
  const bytes = Math.min(TAIL_BYTES, end)
  return rangeHash(fd, end - bytes, bytes)
}

function rangeHash(fd: number, position: number, bytes: number): string {
  const buffer = Buffer.alloc(bytes)
  const bytesRead = readSync(fd, buffer, 0, bytes, position)
  return createHash('sha256').update(buffer.subarray(0, bytesRead)).digest('hex')
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}
