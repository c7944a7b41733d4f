import { lookUpInBatches } from '../batched-lookup'
import type { Db } from '../database'
import type { RelPath } from '../../fs/paths'

export type FileKind = 'file' | 'symlink'
export type JournalOp = 'create' | 'modify' | 'delete' | 'rename' | 'mode'
export type Observed = 'tool' | 'scan' | 'backup' | 'patch' | 'rewind'

/** One side of a change: what the path held (null = nothing there). */
export interface FileVersion {
  kind: FileKind
  hash: string
  size: number
  mode: number
}

/** What is at a path on disk: a file or link version, nothing, a folder, or something else (a FIFO…). */
export type DiskState = FileVersion | null | { kind: 'directory' } | { kind: 'other' }

export interface JournalEntry {
  id: number
  scopeId: number
  op: JournalOp
  path: RelPath
  fromPath: RelPath | null
  before: FileVersion | null
  after: FileVersion | null
  observed: Observed
  createdAt: number
}

export type NewEntry = Omit<JournalEntry, 'id' | 'createdAt'> & {
  createdAt?: number
  /** The agent's tool call that made the change (an imported one), so each call's outcome can be found. */
  toolCallId?: string | null
}

export interface Scope {
  id: number
  workspaceId: number
  sessionRowId: number | null
  turn: number | null
  kind: 'turn' | 'rewind'
  status: 'open' | 'closed'
}

/** A `journal_entries` row as SQLite returns it (other repositories read them too: file-origins.ts). */
export interface EntryRow {
  id: number
  scope_id: number
  op: JournalOp
  path: Buffer
  from_path: Buffer | null
  kind_before: FileKind | null
  kind_after: FileKind | null
  hash_before: string | null
  hash_after: string | null
  size_before: number | null
  size_after: number | null
  mode_before: number | null
  mode_after: number | null
  observed: Observed
  created_at: number
}

/** Journal scopes and entries: which files each turn (or rewind) changed, from what to what. */
export class JournalRepository {
  private readonly insertScopeStmt
  private readonly findScopeStmt
  private readonly scopeStmt
  private readonly closeScopeStmt
  private readonly insertEntryStmt
  private readonly journaledCallsStmt
  private readonly entriesOfScopeStmt
  private readonly sessionEntriesStmt
  private readonly pathHistoryStmt
  private readonly seenHereStmt
  private readonly recordedStmt
  private readonly lastChangedTurnStmt

  constructor(db: Db) {
    this.insertScopeStmt = db.prepare(
      'INSERT INTO journal_scopes (workspace_id, session_id, turn, kind, created_at) VALUES (?, ?, ?, ?, ?)'
    )
    this.findScopeStmt = db.prepare("SELECT * FROM journal_scopes WHERE session_id = ? AND turn = ? AND kind = 'turn' ORDER BY id LIMIT 1")
    this.scopeStmt = db.prepare('SELECT * FROM journal_scopes WHERE id = ?')
    this.closeScopeStmt = db.prepare("UPDATE journal_scopes SET status = 'closed', closed_at = ? WHERE id = ?")
    this.insertEntryStmt = db.prepare(
      `INSERT INTO journal_entries (scope_id, op, path, from_path, kind_before, kind_after, hash_before, hash_after,
         size_before, size_after, mode_before, mode_after, observed, created_at, tool_call_id)
       VALUES (@scopeId, @op, @path, @fromPath, @kindBefore, @kindAfter, @hashBefore, @hashAfter,
         @sizeBefore, @sizeAfter, @modeBefore, @modeAfter, @observed, @createdAt, @toolCallId)`
    )
    this.entriesOfScopeStmt = db.prepare('SELECT * FROM journal_entries WHERE scope_id = ? ORDER BY id')
    this.sessionEntriesStmt = db.prepare(
      `SELECT e.*, s.turn AS scope_turn FROM journal_entries e JOIN journal_scopes s ON s.id = e.scope_id
       WHERE s.session_id = ? AND s.kind = 'turn' AND s.turn >= ? ORDER BY s.turn, e.id`
    )
    // An entry read from an agent's files (tool, patch, backup) was written when it was imported;
    // it happened in its turn, so it takes the time of the turn's first message (found from the
    // turn's checkpoint on the (session_id, seq) key). Scans and rewinds keep their own time.
    this.pathHistoryStmt = db.prepare(
      `SELECT e.*, s.turn AS scope_turn, s.session_id AS scope_session,
         CASE WHEN e.observed IN ('tool', 'patch', 'backup') AND s.session_id IS NOT NULL AND s.turn IS NOT NULL THEN (
           SELECT m.created_at FROM messages m
           WHERE m.session_id = s.session_id AND m.turn = s.turn AND m.created_at IS NOT NULL
             AND m.seq >= coalesce((SELECT c.messages_before FROM checkpoints c WHERE c.session_id = s.session_id AND c.turn = s.turn), 0)
           ORDER BY m.seq LIMIT 1
         ) END AS turn_at
       FROM journal_entries e
       JOIN journal_scopes s ON s.id = e.scope_id
       WHERE s.workspace_id = ? AND (e.path = ? OR e.from_path = ?) ORDER BY e.id`
    )
    this.lastChangedTurnStmt = db.prepare(
      `SELECT MAX(s.turn) AS turn FROM journal_scopes s
       WHERE s.session_id = ? AND s.kind = 'turn' AND EXISTS (SELECT 1 FROM journal_entries e WHERE e.scope_id = s.id)`
    )
    this.journaledCallsStmt = db.prepare(
      `SELECT DISTINCT e.tool_call_id FROM journal_scopes s JOIN journal_entries e ON e.scope_id = s.id
       WHERE s.session_id = ? AND s.kind = 'turn' AND e.tool_call_id IS NOT NULL`
    )
    this.recordedStmt = db.prepare(
      `SELECT 1 FROM journal_entries e JOIN journal_scopes s ON s.id = e.scope_id
       WHERE s.workspace_id = ? AND (e.hash_before = ? OR e.hash_after = ?) LIMIT 1`
    )
    this.seenHereStmt = db.prepare(
      `WITH wanted(path) AS (SELECT unhex(value) FROM json_each(@paths))
       SELECT e.*, s.kind AS scope_kind FROM journal_scopes s
       JOIN journal_entries e ON e.scope_id = s.id
       LEFT JOIN sessions ss ON ss.id = s.session_id
       WHERE s.workspace_id = @workspaceId
         AND ((s.kind = 'rewind' AND e.observed = 'rewind') OR (s.kind = 'turn' AND e.observed = 'scan' AND ss.source IN (SELECT value FROM json_each(@sources))))
         AND (e.path IN wanted OR e.from_path IN wanted)`
    )
  }

  openScope(scope: { workspaceId: number; sessionRowId: number | null; turn: number | null; kind: 'turn' | 'rewind' }): number {
    return Number(this.insertScopeStmt.run(scope.workspaceId, scope.sessionRowId, scope.turn, scope.kind, Date.now()).lastInsertRowid)
  }

  /** The scope holding a turn's file changes, if any were recorded. */
  turnScope(sessionRowId: number, turn: number): Scope | undefined {
    const row = this.findScopeStmt.get(sessionRowId, turn) as ScopeRow | undefined
    return row && toScope(row)
  }

  scope(id: number): Scope | undefined {
    const row = this.scopeStmt.get(id) as ScopeRow | undefined
    return row && toScope(row)
  }

  closeScope(id: number): void {
    this.closeScopeStmt.run(Date.now(), id)
  }

  addEntry(entry: NewEntry): number {
    return Number(
      this.insertEntryStmt.run({
        scopeId: entry.scopeId,
        op: entry.op,
        path: entry.path,
        fromPath: entry.fromPath,
        kindBefore: entry.before?.kind ?? null,
        kindAfter: entry.after?.kind ?? null,
        hashBefore: entry.before?.hash ?? null,
        hashAfter: entry.after?.hash ?? null,
        sizeBefore: entry.before?.size ?? null,
        sizeAfter: entry.after?.size ?? null,
        modeBefore: entry.before?.mode ?? null,
        modeAfter: entry.after?.mode ?? null,
        observed: entry.observed,
        createdAt: entry.createdAt ?? Date.now(),
        toolCallId: entry.toolCallId ?? null
      }).lastInsertRowid
    )
  }

  /** The tool calls a session's turns journaled changes of, each once (the accounting check). */
  journaledToolCalls(sessionRowId: number): string[] {
    return (this.journaledCallsStmt.all(sessionRowId) as { tool_call_id: string }[]).map((row) => row.tool_call_id)
  }

  /** Whether a journal entry of the workspace recorded the version `hash` (before or after a change). */
  recorded(workspaceId: number, hash: string): boolean {
    return this.recordedStmt.get(workspaceId, hash, hash) !== undefined
  }

  entriesOfScope(scopeId: number): JournalEntry[] {
    return (this.entriesOfScopeStmt.all(scopeId) as EntryRow[]).map(toEntry)
  }

  /** Every file change of a session from turn `fromTurn` on, in order, with its turn. */
  sessionEntriesFrom(sessionRowId: number, fromTurn: number): (JournalEntry & { turn: number })[] {
    return (this.sessionEntriesStmt.all(sessionRowId, fromTurn) as (EntryRow & { scope_turn: number })[]).map((row) => ({ ...toEntry(row), turn: row.scope_turn }))
  }

  /** The last turn of a session with a journaled file change, or null when it changed none. */
  lastChangedTurn(sessionRowId: number): number | null {
    return (this.lastChangedTurnStmt.get(sessionRowId) as { turn: number | null }).turn
  }

  /** Every change to one path in a workspace, oldest first, with the session and turn. */
  /** Every change of `path` in the workspace, oldest first; `createdAt` is its turn's time for changes read from an agent's files. */
  pathHistory(workspaceId: number, path: RelPath): (JournalEntry & { turn: number | null; sessionRowId: number | null })[] {
    type Row = EntryRow & { scope_turn: number | null; scope_session: number | null; turn_at: number | null }
    return (this.pathHistoryStmt.all(workspaceId, path, path) as Row[]).map((row) => ({
      ...toEntry(row),
      createdAt: row.turn_at ?? row.created_at,
      turn: row.scope_turn,
      sessionRowId: row.scope_session
    }))
  }

  /**
   * The versions of `paths` this machine saw on its own disk (see rewind/provenance.ts): what
   * its workspace scans journaled in turns of sessions whose source is one of `ownSources`
   * (both sides; a rename's old path before, new path after), and what its rewinds found there
   * before they changed a path (the `before` side of a rewind scope's entries; a kept copy's new
   * name holds what was found too). A rewind's `after` side is what it wrote, not what it saw.
   */
  versionsSeenHere(workspaceId: number, paths: RelPath[], ownSources: readonly string[]): { path: RelPath; version: FileVersion }[] {
    const sources = JSON.stringify(ownSources)
    const rows = lookUpInBatches(
      paths.map((path) => path.toString('hex')),
      (json) => this.seenHereStmt.all({ paths: json, workspaceId, sources }) as (EntryRow & { scope_kind: 'turn' | 'rewind' })[]
    )
    const seen: { path: RelPath; version: FileVersion }[] = []
    const add = (path: Buffer | null, version: FileVersion | null) => {
      if (path && version) seen.push({ path: path as RelPath, version })
    }
    for (const row of rows) {
      const entry = toEntry(row)
      if (entry.op === 'rename') {
        add(entry.fromPath, entry.before)
        add(entry.path, entry.after)
      } else {
        add(entry.path, entry.before)
        if (row.scope_kind === 'turn') add(entry.path, entry.after)
      }
    }
    return seen
  }
}

interface ScopeRow {
  id: number
  workspace_id: number
  session_id: number | null
  turn: number | null
  kind: 'turn' | 'rewind'
  status: 'open' | 'closed'
}

function toScope(row: ScopeRow): Scope {
  return { id: row.id, workspaceId: row.workspace_id, sessionRowId: row.session_id, turn: row.turn, kind: row.kind, status: row.status }
}

function version(kind: FileKind | null, hash: string | null, size: number | null, mode: number | null): FileVersion | null {
  return kind && hash ? { kind, hash, size: size ?? 0, mode: mode ?? 0o644 } : null
}

export function toEntry(row: EntryRow): JournalEntry {
  return {
    id: row.id,
    scopeId: row.scope_id,
    op: row.op,
    path: row.path as RelPath,
    fromPath: row.from_path as RelPath | null,
    before: version(row.kind_before, row.hash_before, row.size_before, row.mode_before),
    after: version(row.kind_after, row.hash_after, row.size_after, row.mode_after),
    observed: row.observed,
    createdAt: row.created_at
  }
}
