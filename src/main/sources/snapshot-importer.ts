import type { HistoryFile, SnapshotSession, SnapshotSourceAdapter } from './adapter'
import type { ImportFileRepository, ImportFileRow } from '../store/repositories/import-files'
import { readImportState } from './import-state'
import { unreadIn } from './records'
import { RecordWriter } from './record-writer'
import { type ImportDeps, type ImportReport } from './import-deps'

/**
 * Import one snapshot store (a LangGraph checkpoint database, say): read it whole, read-only,
 * and import each session whose fingerprint changed since the last import, replacing what that
 * session's earlier import wrote. Sessions are kept apart in `import_files` under
 * `<store path>#<session key>`; the store's own row holds its fingerprint, so an unchanged store
 * is not even read.
 */
export async function importSnapshotFile(
  deps: ImportDeps,
  adapter: SnapshotSourceAdapter,
  workspace: { id: number; path: string },
  file: HistoryFile,
  report: ImportReport,
  options: { signal?: AbortSignal } = {}
): Promise<void> {
  const imports = deps.store.importFiles
  const known = imports.get(workspace.id, file.source, file.path)
  if (known && file.fingerprint !== undefined && known.headSha256 === file.fingerprint) return
  report.files += 1
  const { sessions, problems } = await adapter.read(file)
  for (const problem of problems) report.skipped.push({ file: file.path, offset: 0, reason: problem })
  // A branch after the session it was forked from (its shared prefix is found there), a
  // continuation after the session it continues; a fork of a fork after its parent fork.
  const depth = forkDepths(sessions)
  const ordered = [...sessions].sort((a, b) => (depth.get(a.key) ?? 0) - (depth.get(b.key) ?? 0) || (a.startedAt ?? 0) - (b.startedAt ?? 0) || a.key.localeCompare(b.key))
  // A branch hangs off its parent's messages, a continuation off the session it continues: one
  // written again (a new row) takes those linked to it along.
  const rewritten = new Set<string>()
  for (const session of ordered) {
    options.signal?.throwIfAborted()
    const force = (session.forkedFrom !== null && rewritten.has(session.forkedFrom.sessionId)) || (session.continues !== undefined && rewritten.has(session.continues))
    if (await importSession(deps, imports, workspace, file, session, report, force)) rewritten.add(session.key)
  }
  recordMerges(deps, workspace, file.source, sessions)
  imports.save({ workspaceId: workspace.id, source: file.source, path: file.path, sessionRowId: null, dev: 0, ino: 0, mtimeMs: null, headSha256: file.fingerprint ?? '', tailSha256: null, offset: 0, parserStateJson: 'null', importState: {} })
}

/** Import one session unless it is unchanged (and not forced). True if it was written. */
async function importSession(deps: ImportDeps, imports: ImportFileRepository, workspace: { id: number; path: string }, file: HistoryFile, session: SnapshotSession, report: ImportReport, force: boolean): Promise<boolean> {
  const path = `${file.path}#${session.key}`
  const known = imports.get(workspace.id, file.source, path)
  if (!force && known?.headSha256 === session.fingerprint) return false
  // The session is written again whole, under the id it had: the window showing it stays on it.
  const previousUid = known ? (readImportState(known.importState).sessionUid ?? undefined) : undefined
  const sessionFile: HistoryFile = {
    source: file.source,
    path,
    sessionId: session.key,
    role: 'main',
    cwd: file.cwd,
    backupDir: null,
    ...(session.forkedFrom ? { forkedFrom: session.forkedFrom } : {}),
    ...(session.continues ? { continues: session.continues } : {}),
    ...(session.startedAt !== undefined ? { startedAt: session.startedAt } : {}),
    ...(previousUid ? { reuseUid: previousUid } : {})
  }
  const state = readImportState(undefined)
  const writer = new RecordWriter(deps, workspace, sessionFile, state, report)
  await writer.prepare(session.records)
  return deps.store.transaction(() => {
    // Another process on the same data folder imported this session meanwhile: theirs stands.
    const now = imports.get(workspace.id, file.source, path)
    if (now?.id !== known?.id || now?.headSha256 !== known?.headSha256) return false
    if (known) forget(deps, known)
    for (const record of session.records) writer.apply(record)
    writer.finish()
    const importFileId = imports.save({
      workspaceId: workspace.id,
      source: file.source,
      path,
      sessionRowId: writer.sessionRowId,
      dev: 0,
      ino: 0,
      mtimeMs: null,
      headSha256: session.fingerprint,
      tailSha256: null,
      offset: session.records.length,
      parserStateJson: 'null',
      importState: state
    })
    deps.store.unreadRecords.replace(importFileId, unreadIn(session.records))
    return true
  })
}

/**
 * The session an earlier import of this one wrote goes: it is written again whole. So do the
 * branches its agent-rewind records split off (Gemini CLI's `$rewindTo`): the replay splits them
 * again, and a branch left behind would stop it (a split is made once per abandoned message).
 */
function forget(deps: ImportDeps, known: ImportFileRow): void {
  const state = readImportState(known.importState)
  for (const uid of [...Object.values(state.branches), state.sessionUid]) {
    const session = uid ? deps.store.sessions.get(uid) : undefined
    if (session) deps.store.sessions.delete(session.rowId)
  }
}

/**
 * How many forks deep each session is within the store (0 for one not forked, or forked from a
 * session the store does not hold). A cycle of forks, which no source should produce, stops the count.
 */
function forkDepths(sessions: SnapshotSession[]): Map<string, number> {
  const byKey = new Map(sessions.map((session) => [session.key, session]))
  const depths = new Map<string, number>()
  for (const session of sessions) {
    const seen = new Set<string>()
    let depth = 0
    for (let at = session.forkedFrom ? byKey.get(session.forkedFrom.sessionId) : undefined; at && !seen.has(at.key); at = at.forkedFrom ? byKey.get(at.forkedFrom.sessionId) : undefined) {
      seen.add(at.key)
      depth += 1
    }
    depths.set(session.key, depth)
  }
  return depths
}

/**
 * Merges the source found in its files (`mergedInto`: a Code Buddy branch whose messages its
 * parent ends with), recorded like one made in Retrace (`sessions.merge`, the same row): once both
 * sessions exist, an edge from the branch to the session it went into, starting at the target's
 * first merged record. A session written again loses its merge rows with its old row, so each
 * time the store is read every merge it shows is recorded afresh, replacing its earlier row.
 */
function recordMerges(deps: ImportDeps, workspace: { id: number }, source: string, sessions: SnapshotSession[]): void {
  const { store } = deps
  for (const session of sessions) {
    const merge = session.mergedInto
    if (!merge) continue
    const branch = store.sessions.bySourceId(workspace.id, source, session.key)
    const into = store.sessions.bySourceId(workspace.id, source, merge.sessionId)
    const first = into ? store.messages.bySourceUid(into.rowId, merge.firstUid) : undefined
    if (!branch || !into || !first) continue
    store.transaction(() => {
      store.merges.removeBetween(branch.rowId, into.rowId)
      store.merges.add({ branchRowId: branch.rowId, intoRowId: into.rowId, mode: merge.mode, firstSeq: first.seq, messageCount: merge.messageCount, createdAt: merge.createdAt ?? into.updatedAt })
    })
  }
}
