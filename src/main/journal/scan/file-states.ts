import type { Db } from '../../store/database'
import { lookUpInBatches } from '../../store/batched-lookup'
import { keyOf, type PathKey, type RelPath } from '../paths'
import type { ScannedFile } from './types'

/**
 * Stored in `file_states.ctime_ns` for a file that was read within one timestamp tick of being
 * changed: no real ctime equals it, so the next scan re-reads that file instead of trusting
 * its stat (see `isRacy` in the worker). Every other column holds the real values.
 */
export const RACY_CTIME_NS = -1n

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

/**
 * What this process's last `saveFileStates` left in the table, per connection: a turn's capture
 * loads the states its scan before the turn saved, and reading them back (tens of milliseconds
 * for a large workspace, before its scan can start) is then not needed; a rewind right after
 * that capture looks up its targets here too (fileStatesOf). Valid while no other connection has
 * committed (`PRAGMA data_version` changes only then), as nothing but saveFileStates writes the
 * table.
 */
const lastSaved = new WeakMap<Db, { workspaceId: number; dataVersion: number; states: Map<PathKey, ScannedFile> }>()

const dataVersion = (db: Db): number => db.pragma('data_version', { simple: true }) as number

/** What lastSaved holds for `workspaceId`, if it still is what the table holds. */
function savedStatesOf(db: Db, workspaceId: number): Map<PathKey, ScannedFile> | null {
  const saved = lastSaved.get(db)
  return saved?.workspaceId === workspaceId && saved.dataVersion === dataVersion(db) ? saved.states : null
}

/** The last scan of a workspace as stored: the stat cache of the next scan. */
export function loadFileStates(db: Db, workspaceId: number): Map<PathKey, ScannedFile> {
  const saved = savedStatesOf(db, workspaceId)
  if (saved) return new Map(saved)
  const rows = db
    .prepare('SELECT path, kind, size, mode, hash, mtime_ns, ctime_ns, ino FROM file_states WHERE workspace_id = ?')
    .safeIntegers(true)
    .all(workspaceId) as StateRow[]
  const states = new Map<PathKey, ScannedFile>()
  for (const row of rows) states.set(keyOf(row.path), toScannedFile(row))
  return states
}

/**
 * The files at `paths` as the workspace's last scan recorded them, looked up together: a
 * rewind's plan takes a file's hash from here, instead of reading it, when its stat still
 * matches (as the next scan would). From lastSaved if it still holds (no query on the plan's
 * path); else paths go to SQLite as hex in a JSON array (they are raw bytes).
 */
export function fileStatesOf(db: Db, workspaceId: number, paths: RelPath[]): Map<PathKey, ScannedFile> {
  const saved = savedStatesOf(db, workspaceId)
  if (saved) {
    const states = new Map<PathKey, ScannedFile>()
    for (const path of paths) {
      const key = keyOf(path)
      const state = saved.get(key)
      if (state) states.set(key, state)
    }
    return states
  }
  const select = db
    .prepare('SELECT path, kind, size, mode, hash, mtime_ns, ctime_ns, ino FROM file_states WHERE workspace_id = ? AND path IN (SELECT unhex(value) FROM json_each(?))')
    .safeIntegers(true)
  const rows = lookUpInBatches(
    paths.map((path) => path.toString('hex')),
    (json) => select.all(workspaceId, json) as StateRow[]
  )
  return new Map(rows.map((row) => [keyOf(row.path), toScannedFile(row)]))
}

function toScannedFile(row: StateRow): ScannedFile {
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

const same = (a: ScannedFile, b: ScannedFile): boolean =>
  a.kind === b.kind && a.size === b.size && a.mode === b.mode && a.hash === b.hash && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino

/**
 * Bring `file_states` from `previous` (as loaded) to `next`, in one transaction, writing only the
 * rows that changed (a warm scan of a large workspace then writes almost nothing). With
 * `complete` false (a truncated scan) rows of files the scan did not reach are kept.
 */
export function saveFileStates(
  db: Db,
  workspaceId: number,
  previous: Map<PathKey, ScannedFile>,
  next: Map<PathKey, ScannedFile>,
  options: { racy: ReadonlySet<PathKey>; complete: boolean }
): { written: number; deleted: number } {
  const upsert = db.prepare(
    `INSERT INTO file_states (workspace_id, path, kind, size, mode, hash, mtime_ns, ctime_ns, ino)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (workspace_id, path) DO UPDATE SET kind = excluded.kind, size = excluded.size, mode = excluded.mode,
       hash = excluded.hash, mtime_ns = excluded.mtime_ns, ctime_ns = excluded.ctime_ns, ino = excluded.ino`
  )
  const remove = db.prepare('DELETE FROM file_states WHERE workspace_id = ? AND path = ?')
  let written = 0
  let deleted = 0
  // What the rows hold once this commits, as loadFileStates would read them back.
  const states = options.complete ? new Map<PathKey, ScannedFile>() : new Map(previous)
  db.transaction(() => {
    for (const [key, file] of next) {
      const stored = options.racy.has(key) ? { ...file, ctimeNs: RACY_CTIME_NS } : file
      states.set(key, stored)
      const old = previous.get(key)
      if (old && same(old, stored)) continue
      upsert.run(workspaceId, file.path, stored.kind, stored.size, stored.mode, stored.hash, stored.mtimeNs, stored.ctimeNs, inoToDb(stored.ino))
      written++
    }
    if (!options.complete) return
    for (const [key, old] of previous) {
      if (next.has(key)) continue
      remove.run(workspaceId, old.path)
      deleted++
    }
  })()
  lastSaved.set(db, { workspaceId, dataVersion: dataVersion(db), states })
  return { written, deleted }
}
