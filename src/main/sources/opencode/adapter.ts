import type { HistoryFile, SnapshotSourceAdapter } from '../adapter'
import { dirname } from 'node:path'
import { isInWorkspace } from '../code-buddy/workspace-match'
import { patchFiles } from './patch-files'
import { databaseSessionIds, readOpenCodeDb } from './database'
import { discoverOpenCodeFiles, discoverOpenCodeWorkspace, isWholeStore, openCodeRoots } from './discover'
import type { SessionFilter } from './storage-folder'
import { readStorageFolder } from './storage-folder'
import { isKiloStore, labelKiloSession } from './kilo'
import { openCodeFileTools } from './file-tools'
import { databasesIn } from './store-files'
import { storeSessions } from './store-sessions'

/**
 * OpenCode (sst/opencode): `opencode.db` of current versions (SQLite in WAL mode, read from a
 * temporary copy through foreign-db) or the storage folder of JSON files of older ones, both
 * rewritten in place: a snapshot source. Sessions with their messages and parts — text,
 * reasoning, tool calls and results, file changes, usage and cost per step — and child sessions
 * as sub-agents. Files a shell command changed come from OpenCode's snapshot repository (git
 * plumbing, read-only) where a step's `patch` part names them. The Kilo CLI, a fork of OpenCode,
 * keeps the same stores under `~/.local/share/kilo` (kilo.ts): read here too, its sessions titled
 * "… (Kilo CLI)".
 */
export const openCodeAdapter: SnapshotSourceAdapter = {
  kind: 'snapshot',
  name: 'opencode',
  label: 'OpenCode',
  fromWriterSourceOnly: true,
  fileTools: openCodeFileTools,
  roots: openCodeRoots,
  discoverAll: discoverOpenCodeFiles,
  discover: discoverOpenCodeWorkspace,
  async read(file) {
    const wanted = scopeOf(file)
    const store = file.path.endsWith('.db') ? await readOpenCodeDb(file.path, wanted) : await readStorageBesideDatabases(file.path, wanted)
    const labelSession = isKiloStore(file.path) ? labelKiloSession : undefined
    // The data folder opened as the workspace journals no file (the project's files are not there).
    if (isWholeStore(file)) return storeSessions(store, { fileEdits: false, ...(labelSession ? { labelSession } : {}) })
    const snapshots = patchFiles(dirname(file.path), store)
    const read = storeSessions(store, { fileEdits: true, snapshotsFor: snapshots.lookupFor, ...(labelSession ? { labelSession } : {}) })
    return { sessions: read.sessions, problems: [...read.problems, ...snapshots.problems] }
  }
}

/** The storage folder without the sessions a database beside it holds (migrated there). */
async function readStorageBesideDatabases(storage: string, wanted: SessionFilter) {
  const migrated = new Set<string>()
  for (const db of databasesIn(dirname(storage))) for (const id of await databaseSessionIds(db)) migrated.add(id)
  return readStorageFolder(storage, (session, worktree) => !migrated.has(session.id) && wanted(session, worktree))
}

/** The data folder opened as the workspace shows every session; a project, those that ran in it. */
function scopeOf(file: HistoryFile): SessionFilter {
  if (isWholeStore(file)) return () => true
  const workspace = file.cwd ?? ''
  return (session, worktree) => {
    const directory = session.directory ?? worktree
    return directory !== null && isInWorkspace(directory, workspace)
  }
}
