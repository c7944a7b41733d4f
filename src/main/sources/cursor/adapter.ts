import { existsSync } from 'node:fs'
import { basename } from 'node:path'
import type { SnapshotSourceAdapter } from '../adapter'
import { cursorHome, discoverCliAll, discoverCliWorkspace } from './cli-discover'
import { readCliStore } from './cli-store'
import { composerSessions } from './composer-sessions'
import { cursorFileTools } from './file-tools'
import { cursorRoots, discoverCursorFiles, discoverCursorWorkspace, globalDbOf, workspaceHashOf } from './discover'
import { readCursorStores } from './state-db'
import { readTranscriptSessions } from './transcript-sessions'

/**
 * Cursor's agent / composer conversations: a workspace's `workspaceStorage/<hash>/state.vscdb`
 * names them, the global `globalStorage/state.vscdb` holds them (`cursorDiskKV`). Both are read
 * whole, read-only, from temporary copies (foreign-db/), each workspace's composers by key prefix.
 * Beside them, `~/.cursor`: agent transcripts (JSONL) and the CLI's chat stores (`store.db`).
 */
export const cursorAdapter: SnapshotSourceAdapter = {
  kind: 'snapshot',
  name: 'cursor',
  label: 'Cursor',
  // Cursor is closed source: its current layout is known from the tools that read it; only the
  // pre-3.0 layout was tested on a store Cursor wrote (fixtures/cursor/PROVENANCE.txt).
  fromWriterSourceOnly: true,
  fileTools: cursorFileTools,
  roots: (env) => [...cursorRoots(env), cursorHome(env)],
  discoverAll: async (roots) => [...(await discoverCursorFiles(roots)), ...discoverCliAll(roots)],
  discover: async (workspace, roots) => [...(await discoverCursorWorkspace(workspace, roots)), ...discoverCliWorkspace(workspace, roots)],
  async read(file) {
    if (file.path.endsWith('.jsonl') || file.path.endsWith('.txt')) return readTranscriptSessions(file.path, file.cwd)
    if (basename(file.path) === 'store.db') return readCliStore(file.path, file.sessionId)
    const globalDb = globalDbOf(file.path)
    const stores = await readCursorStores(file.path, existsSync(globalDb) ? globalDb : null, workspaceHashOf(file.path))
    return composerSessions(stores)
  }
}
