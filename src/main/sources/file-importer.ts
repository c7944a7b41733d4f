import { createHash } from 'node:crypto'
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import type { HistoryFile, LineSourceAdapter } from './adapter'
import { type BatchedFile, type ImportBatch, yieldToEventLoop } from './import-batch'
import { importFilesOf, type ImportFileRepository, type ImportFileRow } from '../store/repositories/import-files'
import { readImportState } from './import-state'
import { jsonTextNestsDeeper, MAX_JSON_NESTING } from '../transcripts/json-nesting'
import { MAX_LINE_BYTES, readCompleteLines } from './line-reader'
import type { LineParser, SourceRecord } from './records'
import { RecordWriter, type ImportDeps, type ImportReport } from './record-writer'

/**
 * Lines parsed and queued together: one saved offset (and one savepoint of the batch's
 * transaction, see import-batch.ts). A chunk ends at 500 lines or once its lines hold 8 MB,
 * whichever comes first: what a chunk keeps in memory until its commit grows with its bytes, and
 * a line can hold tens of megabytes (a large tool result).
 */
const CHUNK_LINES = 500
const CHUNK_BYTES = 8 * 1024 * 1024
/** How much of a file's start identifies it (a file rewritten in place has other first bytes). */
const HEAD_BYTES = 4096

export interface FileImportOptions {
  signal?: AbortSignal
  /**
   * Report bytes after the last complete line (a line without its newline): the caller knows
   * the agent is no longer writing it (a one-shot import, or a file quiet for a while). Each
   * such line is reported once; it is imported as usual if it is completed later.
   */
  reportIncompleteLine?: boolean
}

/**
 * Import the bytes of one foreign file added since its last import, queued on `batch` (committed
 * by the caller, or once the batch is full). The file is opened read-only. A file that was
 * replaced or rewritten (other inode, shorter, other first bytes) is imported again from the
 * start, its earlier sessions replaced. Reading and parsing are synchronous; the import yields to
 * the event loop after each chunk.
 */
export async function importHistoryFile(
  deps: ImportDeps,
  adapter: LineSourceAdapter,
  workspace: { id: number; path: string },
  file: HistoryFile,
  report: ImportReport,
  batch: ImportBatch,
  options: FileImportOptions = {}
): Promise<void> {
  const imports = importFilesOf(deps.store.db)
  const fd = openSync(file.path, 'r')
  try {
    const stat = fstatSync(fd)
    let known = imports.get(workspace.id, file.source, file.path)
    if (known && unchangedSince(known, stat)) return
    if (known && !sameFile(fd, known, stat)) {
      batch.commit()
      forget(deps, imports, known)
      known = undefined
    }
    if (known && known.offset === stat.size) {
      // Touched, not written (its first bytes and size are the same): the next look needs no read.
      imports.setModified(known.id, stat.mtimeMs)
      return
    }
    report.files += 1
    const parser = adapter.createParser(known?.parserState)
    const state = readImportState(known?.importState)
    const parentLinks = () => parentLinksOf(imports, workspace.id, file)
    const writer = new RecordWriter(deps, workspace, file, state, report, parentLinks)
    const batched: BatchedFile = {
      failed: false,
      onFailed: (error) => report.skipped.push({ file: file.path, offset: 0, reason: `file not imported: ${error instanceof Error ? error.message : String(error)}` })
    }
    let offset = known?.offset ?? 0
    let chunk: SourceRecord[] = []
    let lines = 0
    let chunkEnd = offset
    const queue = async (afterApply: () => void = () => undefined) => {
      await writer.prepare(chunk)
      const records = chunk
      const end = chunkEnd
      const head = headHash(fd, Math.min(HEAD_BYTES, end))
      // The parser goes on reading before the chunk is applied: its state is taken now.
      const parserState = JSON.stringify(parser.state() ?? null)
      const apply = () => {
        for (const record of records) writer.apply(record)
        afterApply()
        writer.finish()
        imports.save({
          workspaceId: workspace.id,
          source: file.source,
          path: file.path,
          sessionRowId: writer.sessionRowId,
          dev: stat.dev,
          ino: stat.ino,
          mtimeMs: end === stat.size ? stat.mtimeMs : null,
          headSha256: head,
          offset: end,
          parserStateJson: parserState,
          importState: state
        })
      }
      batch.add(batched, apply, { bytes: end - offset, lines })
      offset = end
      chunk = []
      lines = 0
      // Let the window's requests (and a cancel) in between chunks.
      await yieldToEventLoop()
      options.signal?.throwIfAborted()
    }
    for await (const line of readCompleteLines(fd, offset)) {
      options.signal?.throwIfAborted()
      if ('tooLong' in line) chunk.push({ kind: 'skipped', offset: line.offset, reason: `line of ${megabytes(line.tooLong)} is longer than the ${megabytes(MAX_LINE_BYTES)} a line may have, not imported` })
      else chunk.push(...recordsOfLine(parser, line.text, line.offset))
      chunkEnd = line.end
      lines += 1
      if (lines >= CHUNK_LINES || chunkEnd - offset >= CHUNK_BYTES) await queue()
    }
    if (lines > 0 || !known) await queue()
    if (options.reportIncompleteLine && state.incompleteLineReported !== offset) {
      const unfinished = fstatSync(fd).size - offset
      const at = offset
      if (unfinished > 0) {
        await queue(() => {
          report.skipped.push({ file: file.path, offset: at, reason: incompleteLineReason(unfinished) })
          state.incompleteLineReported = at
        })
      }
    }
  } finally {
    closeSync(fd)
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

function incompleteLineReason(bytes: number): string {
  return `last line incomplete (${bytes} bytes with no end of line): it is imported if the agent completes it; if the agent has stopped, it was cut off (a crash or a full disk) and cannot be imported`
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

/**
 * Read to its end already, and neither written nor replaced since (same file, size and
 * modification time): a re-import of unchanged files opens and reads nothing else.
 */
export function unchangedSince(known: Pick<ImportFileRow, 'dev' | 'ino' | 'offset' | 'mtimeMs'>, stat: { dev: number; ino: number; size: number; mtimeMs: number }): boolean {
  return known.mtimeMs === stat.mtimeMs && known.ino === stat.ino && known.dev === stat.dev && known.offset === stat.size
}

function sameFile(fd: number, known: ImportFileRow, stat: { dev: number; ino: number; size: number }): boolean {
  if (stat.dev !== known.dev || stat.ino !== known.ino || stat.size < known.offset) return false
  return headHash(fd, Math.min(HEAD_BYTES, known.offset)) === known.headSha256
}

function headHash(fd: number, bytes: number): string {
  const buffer = Buffer.alloc(bytes)
  const bytesRead = readSync(fd, buffer, 0, bytes, 0)
  return createHash('sha256').update(buffer.subarray(0, bytesRead)).digest('hex')
}

/** Drop what was imported from a file that has been replaced, so it can be read again from the start. */
function forget(deps: ImportDeps, imports: ImportFileRepository, known: ImportFileRow): void {
  deps.store.transaction(() => {
    const state = readImportState(known.importState)
    for (const uid of [state.sessionUid, ...Object.values(state.subAgents), ...Object.values(state.branches)]) {
      const session = uid ? deps.store.sessions.get(uid) : undefined
      if (session) deps.store.sessions.delete(session.rowId)
    }
    imports.delete(known.id)
  })
}

function parentLinksOf(imports: ImportFileRepository, workspaceId: number, file: HistoryFile): Record<string, string> {
  return file.role === 'sub-agent' && file.parentPath ? readImportState(imports.get(workspaceId, file.source, file.parentPath)?.importState).links : {}
}
