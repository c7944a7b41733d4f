import { createHash } from 'node:crypto'
import type { Db } from '../database'

/** What an import that read nothing yet has read: no bytes (sha256 of nothing, as parse-chunks hashes a file's head). */
export const NOTHING_READ = createHash('sha256').digest('hex')

/** How far a foreign file has been imported, and what is needed to continue from there. */
export interface ImportFileRow {
  id: number
  workspaceId: number
  source: string
  path: string
  sessionRowId: number | null
  dev: number
  ino: number
  /** The file's modification time when it was read to its end (null otherwise): unchanged files are not opened again. */
  mtimeMs: number | null
  headSha256: string
  /** sha256 of the min(TAIL_BYTES, offset) bytes before `offset` (null: saved before it was kept). */
  tailSha256: string | null
  offset: number
  /** The file's size on disk when it was read to its end (null otherwise, or saved before it was kept): a compressed file's offset counts decoded bytes. */
  fileSize: number | null
  /** What names the file's content wherever it is and in whichever form (HistoryFile.contentKey), if its source says. */
  contentKey: string | null
  parserState: unknown
  importState: unknown
}

/** What `save` writes: the parser's state already as JSON (taken before its chunk was applied). */
export type ImportFileSave = Omit<ImportFileRow, 'id' | 'parserState' | 'fileSize' | 'contentKey'> & { parserStateJson: string; fileSize?: number | null; contentKey?: string | null }

interface Row {
  id: number
  workspace_id: number
  source: string
  path: string
  session_id: number | null
  dev: number
  ino: number
  mtime_ms: number | null
  head_sha256: string
  tail_sha256: string | null
  offset: number
  file_size: number | null
  content_key: string | null
  parser_state: string
  import_state: string
}

/** The `import_files` table: one row per foreign file per workspace. */
/**
 * How far each of a workspace's files was read: what every import, so every look for new lines,
 * reads first. Answered from the `import_files_progress` index alone (migration 026): the row
 * keeps its size and time after kilobytes of parser state.
 */
export const PROGRESS_SQL = "SELECT source || char(0) || path AS key, dev, ino, offset, mtime_ms AS mtimeMs, file_size AS fileSize FROM import_files WHERE workspace_id = ?"

export class ImportFileRepository {
  private readonly getStmt
  private readonly upsertStmt
  private readonly deleteStmt
  private readonly bySessionStmt
  private readonly saveStateStmt
  private readonly modifiedStmt
  private readonly progressStmt
  private readonly byContentKeyStmt
  private readonly moveStmt
  private readonly ofSourceStmt
  private readonly goneStmt
  private readonly goneCountsStmt
  private readonly restartStmt
  private readonly identityStmt

  constructor(db: Db) {
    this.restartStmt = db.prepare(
      `UPDATE import_files SET offset = 0, parser_state = 'null', head_sha256 = @head, tail_sha256 = NULL, mtime_ms = NULL, file_size = NULL, import_state = @importState
       WHERE id = @id AND offset = @offset`
    )
    this.identityStmt = db.prepare('UPDATE import_files SET dev = ?, ino = ? WHERE id = ?')
    this.getStmt = db.prepare('SELECT * FROM import_files WHERE workspace_id = ? AND source = ? AND path = ?')
    this.upsertStmt = db.prepare(
      `INSERT INTO import_files (workspace_id, source, path, session_id, dev, ino, mtime_ms, head_sha256, tail_sha256, offset, file_size, content_key, parser_state, import_state, imported_at)
       VALUES (@workspaceId, @source, @path, @sessionRowId, @dev, @ino, @mtimeMs, @headSha256, @tailSha256, @offset, @fileSize, @contentKey, @parserState, @importState, @now)
       ON CONFLICT (workspace_id, source, path) DO UPDATE SET session_id = excluded.session_id, dev = excluded.dev, ino = excluded.ino, mtime_ms = excluded.mtime_ms,
         head_sha256 = excluded.head_sha256, tail_sha256 = excluded.tail_sha256, offset = excluded.offset, file_size = excluded.file_size,
         content_key = excluded.content_key, parser_state = excluded.parser_state, import_state = excluded.import_state, imported_at = excluded.imported_at
       RETURNING id`
    )
    this.deleteStmt = db.prepare('DELETE FROM import_files WHERE id = ?')
    this.bySessionStmt = db.prepare('SELECT id, import_state FROM import_files WHERE session_id = ? ORDER BY id LIMIT 1')
    this.saveStateStmt = db.prepare('UPDATE import_files SET import_state = ? WHERE id = ?')
    this.modifiedStmt = db.prepare('UPDATE import_files SET mtime_ms = ?, file_size = ? WHERE id = ?')
    this.progressStmt = db.prepare(PROGRESS_SQL)
    this.byContentKeyStmt = db.prepare('SELECT * FROM import_files WHERE workspace_id = ? AND source = ? AND content_key = ? ORDER BY offset DESC, id')
    // Not read to its end at the new path yet: its next look compares what it holds.
    this.moveStmt = db.prepare('UPDATE import_files SET path = ?, dev = ?, ino = ?, mtime_ms = NULL, file_size = NULL, source_gone_at = NULL WHERE id = ?')
    this.ofSourceStmt = db.prepare('SELECT id, workspace_id AS workspaceId, path, source_gone_at AS goneAt FROM import_files WHERE source = ?')
    this.goneStmt = db.prepare('UPDATE import_files SET source_gone_at = ? WHERE id = ?')
    this.goneCountsStmt = db.prepare(
      `SELECT s.source AS source, count(*) AS sessions, min(f.gone_at) AS firstGoneAt
       FROM (SELECT session_id, max(source_gone_at) AS gone_at FROM import_files WHERE source_gone_at IS NOT NULL AND session_id IS NOT NULL GROUP BY session_id) f
       JOIN sessions s ON s.id = f.session_id GROUP BY s.source ORDER BY s.source`
    )
  }

  /** The import state of the file a session's lines come from (its id and state), if any. */
  stateOfSession(sessionRowId: number): { id: number; importState: unknown } | undefined {
    const row = this.bySessionStmt.get(sessionRowId) as { id: number; import_state: string } | undefined
    return row ? { id: row.id, importState: JSON.parse(row.import_state) as unknown } : undefined
  }

  /** Replace one file's import state (a later file changed what it remembers: a title). */
  saveState(id: number, importState: unknown): void {
    this.saveStateStmt.run(JSON.stringify(importState ?? {}), id)
  }

  get(workspaceId: number, source: string, path: string): ImportFileRow | undefined {
    const row = this.getStmt.get(workspaceId, source, path) as Row | undefined
    return row && toImportFile(row)
  }

  /** The workspace's files of a source whose content has this key (HistoryFile.contentKey), furthest read first. */
  withContentKey(workspaceId: number, source: string, contentKey: string): ImportFileRow[] {
    return (this.byContentKeyStmt.all(workspaceId, source, contentKey) as Row[]).map(toImportFile)
  }

  /** The file's content is at another path now (moved, or compressed or decompressed): its import continues there. */
  move(id: number, path: string, stat: { dev: number; ino: number }): void {
    this.moveStmt.run(path, stat.dev, stat.ino, id)
  }

  /**
   * How far each of the workspace's files was read, by source and path (`${source}\0${path}`),
   * and what it looked like then (its time and size only when it was read to its end).
   */
  progressOf(workspaceId: number): Map<string, { dev: number; ino: number; offset: number; mtimeMs: number | null; fileSize: number | null }> {
    const progress = new Map<string, { dev: number; ino: number; offset: number; mtimeMs: number | null; fileSize: number | null }>()
    for (const row of this.progressStmt.iterate(workspaceId) as Iterable<{ key: string; dev: number; ino: number; offset: number; mtimeMs: number | null; fileSize: number | null }>) progress.set(row.key, row)
    return progress
  }

  /** The file, read to its end before, was touched but not written (`fileSize`: its size on disk, if not its offset). */
  setModified(id: number, mtimeMs: number, fileSize: number | null = null): void {
    this.modifiedStmt.run(mtimeMs, fileSize, id)
  }

  /**
   * Read the file again from its start: no bytes read, its parser afresh, `importState` as given.
   * Only if the import is still at `offset`, as the caller saw it (false: another process on the
   * data folder moved it on, or started it again, first).
   */
  restart(id: number, offset: number, importState: unknown): boolean {
    return this.restartStmt.run({ id, offset, head: NOTHING_READ, importState: JSON.stringify(importState ?? {}) }).changes === 1
  }

  /** The file was replaced by a copy of what it held (rsync, a restore, a sync tool): its import goes on, known by the copy's device and inode. */
  setIdentity(id: number, stat: { dev: number; ino: number }): void {
    this.identityStmt.run(stat.dev, stat.ino, id)
  }

  /** Insert or update the file's row; returns its id. */
  save(row: ImportFileSave, now = Date.now()): number {
    const saved = this.upsertStmt.get({
      workspaceId: row.workspaceId,
      source: row.source,
      path: row.path,
      sessionRowId: row.sessionRowId,
      dev: row.dev,
      ino: row.ino,
      mtimeMs: row.mtimeMs,
      headSha256: row.headSha256,
      tailSha256: row.tailSha256,
      offset: row.offset,
      fileSize: row.fileSize ?? null,
      contentKey: row.contentKey ?? null,
      parserState: row.parserStateJson,
      importState: JSON.stringify(row.importState ?? {}),
      now
    }) as { id: number }
    return saved.id
  }

  /** Every imported file of a source, in every workspace, and when it was found gone (null: not gone). */
  filesOfSource(source: string): { id: number; workspaceId: number; path: string; goneAt: number | null }[] {
    return this.ofSourceStmt.all(source) as { id: number; workspaceId: number; path: string; goneAt: number | null }[]
  }

  /** Mark files as deleted by their agent (`at`), or as back (null). Their sessions stay either way. */
  setGone(ids: number[], at: number | null): void {
    for (const id of ids) this.goneStmt.run(at, id)
  }

  /** Sessions whose agent file is gone, per source, and when the first of them was found gone. */
  goneSessionCounts(): { source: string; sessions: number; firstGoneAt: number }[] {
    return this.goneCountsStmt.all() as { source: string; sessions: number; firstGoneAt: number }[]
  }

  delete(id: number): void {
    this.deleteStmt.run(id)
  }
}

function toImportFile(row: Row): ImportFileRow {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    source: row.source,
    path: row.path,
    sessionRowId: row.session_id,
    dev: row.dev,
    ino: row.ino,
    mtimeMs: row.mtime_ms,
    headSha256: row.head_sha256,
    tailSha256: row.tail_sha256,
    offset: row.offset,
    fileSize: row.file_size,
    contentKey: row.content_key,
    parserState: JSON.parse(row.parser_state) as unknown,
    importState: JSON.parse(row.import_state) as unknown
  }
}
