import type { HistoryFile, SnapshotSourceAdapter } from '../adapter'
import { isInWorkspace } from '../code-buddy/workspace-match'
import { readOpenCodeDb } from './database'
import { discoverOpenCodeFiles, discoverOpenCodeWorkspace, isWholeStore, openCodeRoots } from './discover'
import type { SessionFilter } from './storage-folder'
import { readStorageFolder } from './storage-folder'
import { storeSessions } from './store-sessions'

/**
 * OpenCode (sst/opencode): `opencode.db` of current versions (SQLite in WAL mode, read from a
 * temporary copy through foreign-db) or the storage folder of JSON files of older ones, both
 * rewritten in place: a snapshot source. Sessions with their messages and parts — text,
 * reasoning, tool calls and results, file changes, usage and cost per step — and child sessions
 * as sub-agents.
 */
export const openCodeAdapter: SnapshotSourceAdapter = {
  kind: 'snapshot',
  name: 'opencode',
  label: 'OpenCode',
  fromWriterSourceOnly: true,
  roots: openCodeRoots,
  discoverAll: discoverOpenCodeFiles,
  discover: discoverOpenCodeWorkspace,
  async read(file) {
    const wanted = scopeOf(file)
    const store = file.path.endsWith('.db') ? await readOpenCodeDb(file.path, wanted) : readStorageFolder(file.path, wanted)
    return storeSessions(store, { fileEdits: !isWholeStore(file) })
  }
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
