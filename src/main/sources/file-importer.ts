import { statSync } from 'node:fs'
import type { HistoryFile } from './adapter'
import { isCompressed } from './compressed-files'
import { type BatchedFile, type ImportBatch, yieldToEventLoop } from './import-batch'
import type { ImportFileRepository, ImportFileRow } from '../store/repositories/import-files'
import { readImportState } from './import-state'
import { unreadIn } from './records'
import { readAgain, sameContent } from './imported-content'
import { planMovedFile } from './moved-files'
import { continueSegments, fromTheStart } from './segmented-files'
import type { ParsedChunk, SegmentRead } from './parse-thread/parse-chunks'
import { RecordWriter } from './record-writer'
import { type ImportDeps, type ImportReport } from './import-deps'

export interface FileImportOptions {
  signal?: AbortSignal
  /**
   * Report bytes after the last complete line (a line without its newline): the caller knows
   * the agent is no longer writing it (a one-shot import, or a file quiet for a while). Each
   * such line is reported once; it is imported as usual if it is completed later.
   */
  reportIncompleteLine?: boolean
}

/** What is left to import of one file: from `start`, continuing its earlier import (`known`) if any. */
export interface FilePlan {
  file: HistoryFile
  known: ImportFileRow | undefined
  start: number
  /** Earlier segments of the file's history read first (HistoryFile.segments). */
  before?: SegmentRead[]
}

/**
 * What is left to import of a file, or null when nothing is: read to its end and unchanged, or
 * only touched. A file is known by what it holds, not by its inode: one replaced by a copy of
 * itself (another inode, the same bytes up to the offset) goes on where it was. A file that no
 * longer holds what was read (shorter, other first bytes or bytes before the offset: cut short,
 * an older copy restored, rewritten in place) is read again from the start into the sessions it
 * wrote, which keep every message (imported-content.ts `readAgain`).
 * A file found where none was imported, holding what one imported elsewhere held (the same
 * `contentKey`: moved, compressed or decompressed), continues that one's import (moved-files.ts).
 * A file replaced by one that continues it (a rotated Codex rollout: its old content is now an
 * earlier segment of it) continues its import through the segments (segmented-files.ts).
 * Synchronous: an import plans the files ahead of the one it writes, so the parse thread can
 * read them meanwhile.
 */
export function planFileImport(deps: ImportDeps, workspace: { id: number }, file: HistoryFile, batch: ImportBatch, segmentsNow?: (path: string) => HistoryFile['segments']): FilePlan | null {
  const imports = deps.store.importFiles
  const known = imports.get(workspace.id, file.source, file.path)
  if (!known) {
    const moved = planMovedFile(deps, workspace, file, batch)
    return moved && { file, ...moved }
  }
  const stat = statSync(file.path)
  if (unchangedSince(known, stat)) return null
  const content = sameContent(file.path, known)
  if (!content.same) {
    batch.commit()
    // Replaced since discovery listed it, maybe: what it continues is read again.
    const current = segmentsNow ? { ...file, segments: segmentsNow(file.path) } : file
    const continued = continueSegments(deps, current, known)
    if (continued) return { file, known, ...continued }
    const again = readAgain(deps, known)
    return again && { file, known: again, ...fromTheStart(current) }
  }
  // Replaced by a copy of itself (rsync, a restore, a sync tool): the same import goes on.
  if (stat.dev !== known.dev || stat.ino !== known.ino) imports.setIdentity(known.id, stat)
  if (known.offset === content.size) {
    // Touched, not written (its first bytes and size are the same): the next look needs no read.
    imports.setModified(known.id, stat.mtimeMs, stat.size)
    return null
  }
  return { file, known, start: known.offset }
}

/**
 * Write the chunks of one planned file (parse-chunks.ts: read on the parse thread, or here),
 * queued on `batch`: committed by the caller, or once the batch is full. The import yields to
 * the event loop after each chunk.
 */
export async function importParsedFile(
  deps: ImportDeps,
  workspace: { id: number; path: string },
  plan: FilePlan,
  chunks: AsyncIterable<ParsedChunk> | Iterable<ParsedChunk>,
  report: ImportReport,
  batch: ImportBatch,
  options: FileImportOptions = {}
): Promise<void> {
  const { file, known } = plan
  const imports = deps.store.importFiles
  report.files += 1
  // Read again now, not when the file was planned: the files written before it may have changed
  // what it remembers (a summary naming its session retitles it, summary-titles.ts).
  const state = readImportState(known ? imports.get(workspace.id, file.source, file.path)?.importState : undefined)
  const parentLinks = () => parentLinksOf(imports, workspace.id, file)
  const writer = new RecordWriter(deps, workspace, file, state, report, parentLinks)
  const batched: BatchedFile = {
    failed: false,
    onFailed: (error) => {
      if (error instanceof ImportedElsewhere) return // the process that moved it on imports the rest
      report.skipped.push({ file: file.path, offset: 0, reason: `file not imported: ${error instanceof Error ? error.message : String(error)}` })
    }
  }
  // Where the plan found the file's import, and then where this import left it: another process
  // on the same data folder (the app, a terminal's `retrace import`, a hook, the MCP server) may
  // import the same file at once, and a chunk is written only if nobody moved the file on since.
  let savedOffset = known?.offset
  let saved = known !== undefined
  let savedComplete = false
  // A compressed file is never written on in that form: its unfinished last line is final.
  const reportIncompleteLine = options.reportIncompleteLine === true || isCompressed(file.path)
  for await (const chunk of chunks) {
    options.signal?.throwIfAborted()
    const unfinished = chunk.unfinished ?? 0
    const reportUnfinished = unfinished > 0 && reportIncompleteLine && state.incompleteLineReported !== chunk.end
    // A new file is recorded even when it has no complete line yet; a compressed one, once
    // known to be read to its end (its last chunk, maybe without lines, tells).
    if (chunk.lines === 0 && saved && !reportUnfinished && !(chunk.complete && !savedComplete)) continue
    saved = true
    savedComplete = chunk.complete
    await writer.prepare(chunk.records)
    const apply = () => {
      if (imports.get(workspace.id, file.source, file.path)?.offset !== savedOffset) throw new ImportedElsewhere(file.path)
      writer.readFrom(chunk.segment)
      writer.applyAll(chunk.records)
      if (reportUnfinished) {
        report.skipped.push({ file: file.path, offset: chunk.end, reason: incompleteLineReason(unfinished) })
        state.incompleteLineReported = chunk.end
      }
      writer.finish({ settleCalls: chunk.complete })
      const importFileId = imports.save({
        workspaceId: workspace.id,
        source: file.source,
        path: file.path,
        sessionRowId: writer.sessionRowId,
        dev: chunk.stat.dev,
        ino: chunk.stat.ino,
        mtimeMs: chunk.complete ? chunk.stat.mtimeMs : null,
        fileSize: chunk.complete ? chunk.stat.size : null,
        contentKey: file.contentKey ?? null,
        headSha256: chunk.head,
        tailSha256: chunk.tail,
        offset: chunk.end,
        parserStateJson: chunk.parserStateJson,
        importState: state
      })
      savedOffset = chunk.end
      const unread = unreadIn(chunk.records)
      if (unread.length > 0) deps.store.unreadRecords.add(importFileId, unread)
    }
    batch.add(batched, apply, { bytes: chunk.end - chunk.start, lines: chunk.lines })
    // Let the window's requests (and a cancel) in between chunks.
    await yieldToEventLoop()
    options.signal?.throwIfAborted()
  }
  // Summaries naming a session not imported yet are tried again once the import is all in.
  batch.whenCommitted(() => {
    if (writer.summariesWaiting) deps.settle?.summariesWaiting(workspace, file)
  })
}

/** Another process imported part of this file since this import planned it: this one stops there. */
class ImportedElsewhere extends Error {
  constructor(path: string) {
    super(`${path} was imported further by another process meanwhile`)
    this.name = 'ImportedElsewhere'
  }
}

function incompleteLineReason(bytes: number): string {
  return `last line incomplete (${bytes} bytes with no end of line): it is imported if the agent completes it; if the agent has stopped, it was cut off (a crash or a full disk) and cannot be imported`
}

/**
 * Read to its end already, and neither written nor replaced since (same file, size and
 * modification time): a re-import of unchanged files opens and reads nothing else. The size is
 * the file's on disk (a compressed file's offset counts decoded bytes).
 */
export function unchangedSince(known: Pick<ImportFileRow, 'dev' | 'ino' | 'offset' | 'mtimeMs' | 'fileSize'>, stat: { dev: number; ino: number; size: number; mtimeMs: number }): boolean {
  return known.mtimeMs === stat.mtimeMs && known.ino === stat.ino && known.dev === stat.dev && (known.fileSize ?? known.offset) === stat.size
}

function parentLinksOf(imports: ImportFileRepository, workspaceId: number, file: HistoryFile): Record<string, string> {
  return file.role === 'sub-agent' && file.parentPath ? readImportState(imports.get(workspaceId, file.source, file.parentPath)?.importState).links : {}
}
