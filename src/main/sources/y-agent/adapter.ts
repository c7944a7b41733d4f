import { dirname } from 'node:path'
import type { SnapshotSourceAdapter } from '../adapter'
import { ReadTimeLimit } from '../foreign-db/read-foreign-db'
import { discoverYAgentFiles, discoverYAgentWorkspace, yAgentRoots } from './discover'
import { readStoreDb, type StoreDb } from './store-db'
import { storeSessions } from './store-sessions'
import { fileTools } from './file-tools'

/**
 * y-agent's data folder (`y-agent.db`, SQLite in WAL mode, with `transcripts/*.jsonl` and
 * `journal/blobs/`): every session with its display transcript, compaction, checkpoints, file
 * journal and traced usage. Read whole, read-only, from a temporary copy of the database.
 */
export const yAgentAdapter: SnapshotSourceAdapter = {
  kind: 'snapshot',
  name: 'y-agent',
  label: 'y-agent',
  fileTools,
  roots: yAgentRoots,
  discoverAll: discoverYAgentFiles,
  discover: discoverYAgentWorkspace,
  async read(file) {
    const dataDir = dirname(file.path)
    let db: StoreDb
    try {
      db = await readStoreDb(file.path)
    } catch (error) {
      // Too slow to read this time: thrown on, so the store is read again at the next import.
      if (error instanceof ReadTimeLimit) throw error
      // The message names the file and says why (not SQLite, refused).
      return { sessions: [], problems: [(error as Error).message] }
    }
    // The data folder opened as a workspace shows the whole store; a project, its own sessions.
    return storeSessions(dataDir, db, file.cwd === dataDir || !file.cwd ? { mode: 'store' } : { mode: 'project', cwd: file.cwd })
  }
}
