import { createHash } from 'node:crypto'
import { open, type FileHandle } from 'node:fs/promises'
import type { HistoryFile, LineSourceAdapter } from './adapter'
import { importFilesOf, type ImportFileRepository, type ImportFileRow } from './import-files'
import { readImportState } from './import-state'
import { jsonTextNestsDeeper, MAX_JSON_NESTING } from '../transcripts/json-nesting'
import { MAX_LINE_BYTES, readCompleteLines } from './line-reader'
import type { LineParser, SourceRecord } from './records'
import { RecordWriter, type ImportDeps, type ImportReport } from './record-writer'

/**
 * Lines parsed and committed together: one transaction, one saved offset. A chunk ends at 500
 * lines or once its lines hold 8 MB, whichever comes first: what a chunk keeps in memory until
 * its commit grows with its bytes, and a line can hold tens of megabytes (a large tool result).
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
  /** Called after each committed chunk with the bytes consumed so far and the file's size. */
  onProgress?: (done: number, total: number) => void
}

/**
 * Import the bytes of one foreign file added since its last import. The file is opened
 * read-only. A file that was replaced or rewritten (other inode, shorter, other first bytes)
 * is imported again from the start, its earlier sessions replaced.
 */
export async function importHistoryFile(
  deps: ImportDeps,
  adapter: LineSourceAdapter,
  workspace: { id: number; path: string },
  file: HistoryFile,
  report: ImportReport,
  options: FileImportOptions = {}
): Promise<void> {
  const imports = importFilesOf(deps.store.db)
  const handle = await open(file.path, 'r')
  try {
    const stat = await handle.stat()
    let known = imports.get(workspace.id, file.source, file.path)
    if (known && !(await sameFile(handle, known, stat))) {
      forget(deps, imports, known)
      known = undefined
    }
    if (known && known.offset === stat.size) return
    report.files += 1
    const parser = adapter.createParser(known?.parserState)
    const state = readImportState(known?.importState)
    const parentLinks = () => parentLinksOf(imports, workspace.id, file)
    const writer = new RecordWriter(deps, workspace, file, state, report, parentLinks)
    let offset = known?.offset ?? 0
    let chunk: SourceRecord[] = []
    let lines = 0
    let chunkEnd = offset
    const commit = async () => {
      await writer.prepare(chunk)
      const records = chunk
      const head = await headHash(handle, Math.min(HEAD_BYTES, chunkEnd))
      deps.store.transaction(() => {
        for (const record of records) writer.apply(record)
        writer.finish()
        imports.save({
          workspaceId: workspace.id,
          source: file.source,
          path: file.path,
          sessionRowId: writer.sessionRowId,
          dev: stat.dev,
          ino: stat.ino,
          headSha256: head,
          offset: chunkEnd,
          parserState: parser.state(),
          importState: state
        })
      })
      offset = chunkEnd
      chunk = []
      lines = 0
      options.onProgress?.(offset, stat.size)
    }
    for await (const line of readCompleteLines(handle, offset)) {
      options.signal?.throwIfAborted()
      if ('tooLong' in line) chunk.push({ kind: 'skipped', offset: line.offset, reason: `line of ${megabytes(line.tooLong)} is longer than the ${megabytes(MAX_LINE_BYTES)} a line may have, not imported` })
      else chunk.push(...recordsOfLine(parser, line.text, line.offset))
      chunkEnd = line.end
      lines += 1
      if (lines >= CHUNK_LINES || chunkEnd - offset >= CHUNK_BYTES) await commit()
    }
    if (lines > 0 || !known) await commit()
    if (options.reportIncompleteLine && state.incompleteLineReported !== offset) {
      const unfinished = (await handle.stat()).size - offset
      if (unfinished > 0) {
        report.skipped.push({ file: file.path, offset, reason: incompleteLineReason(unfinished) })
        state.incompleteLineReported = offset
        await commit()
      }
    }
  } finally {
    await handle.close()
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

async function sameFile(handle: FileHandle, known: ImportFileRow, stat: { dev: number; ino: number; size: number }): Promise<boolean> {
  if (stat.dev !== known.dev || stat.ino !== known.ino || stat.size < known.offset) return false
  return (await headHash(handle, Math.min(HEAD_BYTES, known.offset))) === known.headSha256
}

async function headHash(handle: FileHandle, bytes: number): Promise<string> {
  const buffer = Buffer.alloc(bytes)
  const { bytesRead } = await handle.read(buffer, 0, bytes, 0)
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
