import { writeTransaction, type Db } from '../database'
import { lookUpInBatches } from '../batched-lookup'
import { keyOf, type PathKey, type RelPath } from '../../fs/paths'

/**
 * Stored in `file_states.ctime_ns` for a file that was read within one timestamp tick of being
 * changed: no real ctime equals it, so the next scan re-reads that file instead of trusting
 * its stat (see `isRacy` in the worker). Every other column holds the real values.
 */
export const RACY_CTIME_NS = -1n

/** A file as a workspace scan found it (its stat and content hash): one `file_states` row. */
export interface FileState {
  path: RelPath
  kind: 'file' | 'symlink'
  /** Bytes of content; for a symlink, bytes of its target. */
  size: number
  /** Permission bits only (`st_mode & 0o7777`); the type is in `kind`. */
  mode: number
  /** sha256 of the content, or of a symlink's target bytes (links are never followed). */
  hash: string
  mtimeNs: bigint
  ctimeNs: bigint
  ino: bigint
}

interface StateRow {
  path: Buffer
  kind: 'file' | 'symlink'
  size: bigint
  mode: bigint
  hash: string
  mtime_ns: bigint
  ctime_ns: bigint
  ino: bigint
}

/** SQLite integers are signed 64-bit; an inode number is unsigned. Store its bits, read them back. */
const inoToDb = (ino: bigint): bigint => BigInt.asIntN(64, ino)
const inoFromDb = (ino: bigint): bigint => BigInt.asUintN(64, ino)

const COLUMNS = 'path, kind, size, mode, hash, mtime_ns, ctime_ns, ino'

/** The `file_states` table: each workspace's last scan, the stat cache of the next one. */
export class FileStateRepository {
  private readonly allStmt
  private readonly someStmt
  private readonly upsertStmt
  private readonly removeStmt
  /**
   * What this connection's last `save` left in the table: a turn's capture loads the states
   * its scan before the turn saved, and reading them back (10,000 rows) would delay its scan;
   * a rewind right after that capture looks up its targets here too (`statesOf`). Valid while
   * no other connection has committed (`PRAGMA data_version` changes only then), as nothing
   * but `save` writes the table.
   */
  private lastSaved: { workspaceId: number; dataVersion: number; states: Map<PathKey, FileState> } | null = null

  constructor(private readonly db: Db) {
    this.allStmt = db.prepare(`SELECT ${COLUMNS} FROM file_states WHERE workspace_id = ?`).safeIntegers(true)
    this.someStmt = db.prepare(`SELECT ${COLUMNS} FROM file_states WHERE workspace_id = ? AND path IN (SELECT unhex(value) FROM json_each(?))`).safeIntegers(true)
    this.upsertStmt = db.prepare(
      `INSERT INTO file_states (workspace_id, path, kind, size, mode, hash, mtime_ns, ctime_ns, ino)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (workspace_id, path) DO UPDATE SET kind = excluded.kind, size = excluded.size, mode = excluded.mode,
         hash = excluded.hash, mtime_ns = excluded.mtime_ns, ctime_ns = excluded.ctime_ns, ino = excluded.ino`
    )
    this.removeStmt = db.prepare('DELETE FROM file_states WHERE workspace_id = ? AND path = ?')
  }

  private dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number
  }

  /** What lastSaved holds for `workspaceId`, if it still is what the table holds. */
  private savedStatesOf(workspaceId: number): Map<PathKey, FileState> | null {
    const saved = this.lastSaved
    return saved?.workspaceId === workspaceId && saved.dataVersion === this.dataVersion() ? saved.states : null
  }

  /** The last scan of a workspace as stored: the stat cache of the next scan. */
  load(workspaceId: number): Map<PathKey, FileState> {
    const saved = this.savedStatesOf(workspaceId)
    if (saved) return new Map(saved)
    const states = new Map<PathKey, FileState>()
    for (const row of this.allStmt.all(workspaceId) as StateRow[]) states.set(keyOf(row.path), toFileState(row))
    return states
  }

  /**
   * The files at `paths` as the workspace's last scan recorded them, looked up together: a
   * rewind's plan takes a file's hash from here, instead of reading it, when its stat still
   * matches (as the next scan would). From lastSaved if it still holds; else paths go to
   * SQLite as hex in a JSON array (they are raw bytes).
   */
  statesOf(workspaceId: number, paths: RelPath[]): Map<PathKey, FileState> {
    const saved = this.savedStatesOf(workspaceId)
    if (saved) {
      const states = new Map<PathKey, FileState>()
      for (const path of paths) {
        const key = keyOf(path)
        const state = saved.get(key)
        if (state) states.set(key, state)
      }
      return states
    }
    const rows = lookUpInBatches(
      paths.map((path) => path.toString('hex')),
      (json) => this.someStmt.all(workspaceId, json) as StateRow[]
    )
    return new Map(rows.map((row) => [keyOf(row.path), toFileState(row)]))
  }

  /**
   * Bring the workspace's rows from `previous` (as loaded) to `next`, in one transaction,
   * writing only the rows that changed (a warm scan of a large workspace then writes almost
   * nothing). With `complete` false (a truncated scan) rows of files the scan did not reach
   * are kept.
   */
  save(
    workspaceId: number,
    previous: Map<PathKey, FileState>,
    next: Map<PathKey, FileState>,
    options: { racy: ReadonlySet<PathKey>; complete: boolean }
  ): { written: number; deleted: number } {
    let written = 0
    let deleted = 0
    // What the rows hold once this commits, as `load` would read them back.
    const states = options.complete ? new Map<PathKey, FileState>() : new Map(previous)
    writeTransaction(this.db, () => {
      for (const [key, file] of next) {
        const stored = options.racy.has(key) ? { ...file, ctimeNs: RACY_CTIME_NS } : file
        states.set(key, stored)
        const old = previous.get(key)
        if (old && same(old, stored)) continue
        this.upsertStmt.run(workspaceId, file.path, stored.kind, stored.size, stored.mode, stored.hash, stored.mtimeNs, stored.ctimeNs, inoToDb(stored.ino))
        written++
      }
      if (!options.complete) return
      for (const [key, old] of previous) {
        if (next.has(key)) continue
        this.removeStmt.run(workspaceId, old.path)
        deleted++
      }
    })
    this.lastSaved = { workspaceId, dataVersion: this.dataVersion(), states }
    return { written, deleted }
  }
}

function toFileState(row: StateRow): FileState {
  return {
    path: row.path as RelPath,
    kind: row.kind,
    size: Number(row.size),
    mode: Number(row.mode),
    hash: row.hash,
    mtimeNs: row.mtime_ns,
    ctimeNs: row.ctime_ns,
    ino: inoFromDb(row.ino)
  }
}

const same = (a: FileState, b: FileState): boolean =>
  a.kind === b.kind && a.size === b.size && a.mode === b.mode && a.hash === b.hash && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino
