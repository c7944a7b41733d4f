import { existsSync } from 'node:fs'
import type { SnapshotSourceAdapter } from '../adapter'
import { composerSessions } from './composer-sessions'
import { cursorRoots, discoverCursorFiles, discoverCursorWorkspace, globalDbOf, workspaceHashOf } from './discover'
import { readCursorStores } from './state-db'

/**
 * Cursor's agent / composer conversations: a workspace's `workspaceStorage/<hash>/state.vscdb`
 * names them, the global `globalStorage/state.vscdb` holds them (`cursorDiskKV`). Both are read
 * whole, read-only, from temporary copies (foreign-db/), each workspace's composers by key prefix.
 */
export const cursorAdapter: SnapshotSourceAdapter = {
  kind: 'snapshot',
  name: 'cursor',
  label: 'Cursor',
  // Cursor is closed source: its current layout is known from the tools that read it; only the
  // pre-3.0 layout was tested on a store Cursor wrote (fixtures/cursor/PROVENANCE.txt).
  fromWriterSourceOnly: true,
  roots: (env) => cursorRoots(env),
  discoverAll: discoverCursorFiles,
  discover: discoverCursorWorkspace,
  async read(file) {
    const globalDb = globalDbOf(file.path)
    const stores = await readCursorStores(file.path, existsSync(globalDb) ? globalDb : null, workspaceHashOf(file.path))
    return composerSessions(stores)
  }
}
