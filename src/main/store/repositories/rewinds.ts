import type { DiskState, FileVersion } from './journal'
import type { RelPath } from '../../fs/paths'
import { writeTransaction, type Db } from '../database'

export type RewindStatus = 'applying' | 'applied' | 'rolled_back' | 'failed' | 'undone'

/** A rewind of files: what it targeted, how it ended, and whether start-up recovery finished it. */
export interface Rewind {
  id: string
  workspaceId: number
  sessionRowId: number | null
  targetTurn: number | null
  /** The rewind this one undid. */
  undoOf: string | null
  beforeScopeId: number | null
  status: RewindStatus
  summary: string
  createdAt: number
  finishedAt: number | null
  recoveredAt: number | null
  recoverySeenAt: number | null
}

/** The shortest start of a rewind id taken for the whole (as for session ids). */
const MIN_REWIND_ID_PREFIX = 4

const REWIND_COLUMNS = `id, workspace_id AS workspaceId, session_id AS sessionRowId, target_turn AS targetTurn, undo_of AS undoOf,
  before_scope_id AS beforeScopeId, status, summary, created_at AS createdAt, finished_at AS finishedAt,
  recovered_at AS recoveredAt, recovery_seen_at AS recoverySeenAt`

/** A path start-up recovery left as it found it: what it found, and the version from before the rewind. */
export interface RecoveryConflict {
  path: RelPath
  found: DiskState
  /** The found file or link was saved to the store (under its hash) before recovery went on. */
  saved: boolean
  before: FileVersion | null
}

/** A rewind a crash interrupted, and what start-up recovery did with it. */
export interface Recovery {
  rewind: Rewind
  conflicts: RecoveryConflict[]
}

interface ConflictRow {
  path: Buffer
  kind_found: 'file' | 'symlink' | 'directory' | 'other' | null
  hash_found: string | null
  size_found: number | null
  mode_found: number | null
  kind_before: 'file' | 'symlink' | null
  hash_before: string | null
  size_before: number | null
  mode_before: number | null
}

/** Rewinds of files, and what recovery did with the ones a crash interrupted. */
export class RewindRepository {
  private readonly insertStmt
  private readonly finishStmt
  private readonly statusStmt
  private readonly byIdStmt
  private readonly ofSessionStmt
  private readonly recoveredStmt
  private readonly insertConflictStmt
  private readonly conflictsStmt
  private readonly recoveriesStmt
  private readonly seenStmt
  private readonly checkpointTimeStmt
  private readonly savedInWorkspaceStmt
  private readonly matchingStmt

  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare(
      `INSERT INTO rewinds (id, workspace_id, session_id, target_turn, undo_of, before_scope_id, status, created_at)
       VALUES (@id, @workspaceId, @sessionRowId, @targetTurn, @undoOf, @beforeScopeId, 'applying', @createdAt)`
    )
    this.finishStmt = db.prepare('UPDATE rewinds SET status = ?, finished_at = ?, summary = coalesce(?, summary) WHERE id = ?')
    this.statusStmt = db.prepare('UPDATE rewinds SET status = ? WHERE id = ?')
    this.byIdStmt = db.prepare(`SELECT ${REWIND_COLUMNS} FROM rewinds WHERE id = ?`)
    this.ofSessionStmt = db.prepare(`SELECT ${REWIND_COLUMNS} FROM rewinds WHERE session_id = ? ORDER BY created_at`)
    this.matchingStmt = db.prepare(
      `SELECT ${REWIND_COLUMNS},
         (SELECT uid FROM sessions WHERE sessions.id = rewinds.session_id) AS sessionId,
         (SELECT title FROM sessions WHERE sessions.id = rewinds.session_id) AS sessionTitle
       FROM rewinds WHERE length(@ref) >= ${MIN_REWIND_ID_PREFIX} AND substr(id, 1, length(@ref)) = @ref ORDER BY created_at DESC LIMIT 20`
    )
    this.recoveredStmt = db.prepare('UPDATE rewinds SET recovered_at = ? WHERE id = ?')
    this.insertConflictStmt = db.prepare(
      `INSERT OR REPLACE INTO rewind_recovery_conflicts (rewind_id, path, kind_found, hash_found, size_found, mode_found, kind_before, hash_before, size_before, mode_before)
       VALUES (@rewindId, @path, @kindFound, @hashFound, @sizeFound, @modeFound, @kindBefore, @hashBefore, @sizeBefore, @modeBefore)`
    )
    this.conflictsStmt = db.prepare('SELECT * FROM rewind_recovery_conflicts WHERE rewind_id = ? ORDER BY path')
    this.recoveriesStmt = db.prepare(
      `SELECT ${REWIND_COLUMNS} FROM rewinds WHERE recovered_at IS NOT NULL AND (@unseenOnly = 0 OR recovery_seen_at IS NULL)
       AND (@workspaceId IS NULL OR workspace_id = @workspaceId) ORDER BY recovered_at DESC`
    )
    this.savedInWorkspaceStmt = db.prepare(
      `SELECT 1 FROM rewind_recovery_conflicts c JOIN rewinds r ON r.id = c.rewind_id WHERE r.workspace_id = ? AND c.hash_found = ? LIMIT 1`
    )
    this.seenStmt = db.prepare('UPDATE rewinds SET recovery_seen_at = ? WHERE id = ? AND recovered_at IS NOT NULL')
    // The prompt's time, never before the workspace was first known here (an imported history's
    // times are its own, and may say anything): see RewindService.foldersBornAfter.
    this.checkpointTimeStmt = db.prepare(
      `SELECT max((SELECT min(m.created_at) FROM messages m WHERE m.session_id = s.id AND m.turn = @turn), w.created_at)
       FROM sessions s JOIN workspaces w ON w.id = s.workspace_id WHERE s.id = @sessionRowId`
    ).pluck()
  }

  insert(rewind: { id: string; workspaceId: number; sessionRowId: number | null; targetTurn: number | null; undoOf: string | null; beforeScopeId: number }): void {
    this.insertStmt.run({ ...rewind, createdAt: Date.now() })
  }

  finish(id: string, status: RewindStatus, summary?: object): void {
    this.finishStmt.run(status, Date.now(), summary ? JSON.stringify(summary) : null, id)
  }

  markUndone(id: string): void {
    this.statusStmt.run('undone', id)
  }

  get(id: string): Rewind | undefined {
    return this.byIdStmt.get(id) as Rewind | undefined
  }

  /** The rewinds whose id starts with `ref` (at least 4 characters), with their session; newest first, at most 20. */
  matching(ref: string): (Rewind & { sessionId: string | null; sessionTitle: string | null })[] {
    return this.matchingStmt.all({ ref }) as (Rewind & { sessionId: string | null; sessionTitle: string | null })[]
  }

  ofSession(sessionRowId: number): Rewind[] {
    return this.ofSessionStmt.all(sessionRowId) as Rewind[]
  }

  /** Start-up recovery finished `id` (rolled it back), leaving `conflicts` as it found them. */
  recordRecovery(id: string, conflicts: RecoveryConflict[]): void {
    writeTransaction(this.db, () => {
      this.finish(id, 'rolled_back')
      this.recoveredStmt.run(Date.now(), id)
      for (const conflict of conflicts) {
        const found = conflict.found
        const version = found !== null && (found.kind === 'file' || found.kind === 'symlink') ? found : null
        this.insertConflictStmt.run({
          rewindId: id,
          path: conflict.path,
          kindFound: found?.kind ?? null,
          hashFound: conflict.saved ? (version?.hash ?? null) : null,
          sizeFound: version?.size ?? null,
          modeFound: version?.mode ?? null,
          kindBefore: conflict.before?.kind ?? null,
          hashBefore: conflict.before?.hash ?? null,
          sizeBefore: conflict.before?.size ?? null,
          modeBefore: conflict.before?.mode ?? null
        })
      }
    })
  }

  /** Rewinds start-up recovery finished, newest first; `unseenOnly`: those the user has not dismissed. */
  recoveries(options: { workspaceId?: number; unseenOnly?: boolean } = {}): Recovery[] {
    const rows = this.recoveriesStmt.all({ workspaceId: options.workspaceId ?? null, unseenOnly: options.unseenOnly ? 1 : 0 }) as Rewind[]
    return rows.map((rewind) => ({ rewind, conflicts: (this.conflictsStmt.all(rewind.id) as ConflictRow[]).map(toConflict) }))
  }

  /** Recovery saved `hash` in this workspace (the user's version of a file it left as found). */
  recoverySaved(workspaceId: number, hash: string): boolean {
    return this.savedInWorkspaceStmt.get(workspaceId, hash) !== undefined
  }

  /** The user has read what recovery did with `id`. False if no recovery finished it. */
  markRecoverySeen(id: string): boolean {
    return this.seenStmt.run(Date.now(), id).changes > 0
  }

  /**
   * When the state before `turn` of a session was current (ms), as far as this store can
   * vouch for it; null when the turn's prompt has no time.
   */
  checkpointTime(sessionRowId: number, turn: number): number | null {
    return (this.checkpointTimeStmt.get({ sessionRowId, turn }) as number | null | undefined) ?? null
  }
}

function toConflict(row: ConflictRow): RecoveryConflict {
  const found: DiskState =
    row.kind_found === null
      ? null
      : row.kind_found === 'directory' || row.kind_found === 'other'
        ? { kind: row.kind_found }
        : { kind: row.kind_found, hash: row.hash_found ?? '', size: row.size_found ?? 0, mode: row.mode_found ?? 0 }
  const before: FileVersion | null = row.kind_before === null ? null : { kind: row.kind_before, hash: row.hash_before ?? '', size: row.size_before ?? 0, mode: row.mode_before ?? 0 }
  return { path: row.path as RelPath, found, saved: row.hash_found !== null, before }
}
