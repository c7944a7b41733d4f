import { join } from 'node:path'
import { openDatabase, writeTransaction } from './database'
import { rememberDatabase } from './raw-database'
import { prepareDataFolder } from './data-folder'
import { privateFile } from './private-files'
import { AgentContinuationRepository } from './repositories/agent-continuations'
import { BlobRepository } from './repositories/blobs'
import { CheckpointRepository } from './repositories/checkpoints'
import { NotCapturedRepository } from './repositories/not-captured'
import { MessageRepository } from './repositories/messages'
import { RecordedFileRepository } from './repositories/recorded-files'
import { WorkspaceListingRepository } from './repositories/workspace-listing'
import { DiscoveredFileRepository } from './repositories/discovered-files'
import { FileStateRepository } from './repositories/file-states'
import { FileOriginRepository } from './repositories/file-origins'
import { UnreadRecordRepository } from './repositories/unread-records'
import { ImportFileRepository } from './repositories/import-files'
import { JournalRepository } from './repositories/journal'
import { LineCountRepository } from './repositories/line-counts'
import { RewindRepository } from './repositories/rewinds'
import { SearchIndex } from './repositories/search-index'
import { SessionFoldRepository } from './repositories/session-folds'
import { SessionLinkRepository } from './repositories/session-links'
import { SessionMergeRepository } from './repositories/session-merges'
import { SessionRepository } from './repositories/sessions'
import { SessionSplitRepository } from './repositories/session-splits'
import { SessionPricing } from './repositories/session-pricing'
import { UsageRepository } from './repositories/usage'
import { SourceFolderRepository } from './repositories/source-folders'
import { TreeRepository } from './repositories/tree'
import { WorkspaceRepository } from './repositories/workspaces'
import { WorkspaceCoverageRepository } from './repositories/workspace-coverage'
import { WalCheckpoints } from './wal-checkpoints'

export const DATABASE_FILE = 'retrace.db'

/**
 * The user's store: one SQLite database in the data folder, and one repository per aggregate.
 * Only the store runs SQL on it: the rest of Retrace calls these repositories.
 */
export interface Store {
  readonly dataDir: string
  readonly workspaces: WorkspaceRepository
  readonly sessions: SessionRepository
  readonly messages: MessageRepository
  readonly checkpoints: CheckpointRepository
  /** File changes agents' histories show that could not be journaled, per turn (the accounting rule). */
  readonly notCaptured: NotCapturedRepository
  /** Rewinds of files, and what start-up recovery did with interrupted ones. */
  readonly rewinds: RewindRepository
  /** Lines of an agent's history split off a session (in-agent rewinds). */
  readonly splits: SessionSplitRepository
  /** Sessions' cost at the price table's prices (recomputed at start for a new table). */
  readonly pricing: SessionPricing
  /** A workspace's tokens and cost by day, model and source (the Usage view). */
  readonly usage: UsageRepository
  /** The session graph of a workspace (read-only). */
  readonly tree: TreeRepository
  /** What a rewind can put back of a workspace's sessions, summed. */
  readonly workspaceCoverage: WorkspaceCoverageRepository
  /** The full-text index of messages, filled in bulk after an import (see search-index.ts). */
  readonly searchIndex: SearchIndex
  /** How far each agent file was imported, per workspace. */
  readonly importFiles: ImportFileRepository
  /** Records each imported file held that its importer did not read, counted (a format change). */
  readonly unreadRecords: UnreadRecordRepository
  /** What discovery read of each agent file (see sources/discovery-cache.ts). */
  readonly discoveredFiles: DiscoveredFileRepository
  /** What the agents' histories record per file, for the first screen (migration 027). */
  readonly recordedFiles: RecordedFileRepository
  /** The first screen's reads of the workspaces, and hiding and forgetting them. */
  readonly workspaceListing: WorkspaceListingRepository
  /** Folders added to a workspace as one source's history. */
  readonly sourceFolders: SourceFolderRepository
  /** Branches merged into sessions, and what undoing each merge needs. */
  readonly merges: SessionMergeRepository
  /** How sessions of one source refer to each other (summaries, sub-agents, warm-ups). */
  readonly sessionLinks: SessionLinkRepository
  /** The session files Retrace wrote for an agent to resume, and the sessions they continue. */
  readonly continuations: AgentContinuationRepository
  /** Copies of a workspace's sessions in enclosing folders' workspaces, folded into it (R60). */
  readonly sessionFolds: SessionFoldRepository
  /** Which files each turn or rewind changed, from what to what. */
  readonly journal: JournalRepository
  /** The +N −M of each pair of file contents once diffed (kept: a diff costs up to a second). */
  readonly lineCounts: LineCountRepository
  /** A path's journal entries with their sessions, turns and prompts: what blame reads. */
  readonly fileOrigins: FileOriginRepository
  /** Rows of the content-addressed snapshots and their deflate dictionaries (content: journal/blob-store.ts). */
  readonly blobs: BlobRepository
  /** Each workspace's last scan: the stat cache of the next one. */
  readonly fileStates: FileStateRepository
  /** Whether a transaction is open (work then joins it instead of opening a savepoint). */
  readonly inTransaction: boolean
  /**
   * Run `work` in one synchronous transaction (no awaits inside) that may write: it takes the
   * write lock first, so it waits while another process writes (database.ts `writeTransaction`).
   */
  transaction<T>(work: () => T): T
  /** Read in one snapshot (no writes inside): what others commit meanwhile is not seen, and not waited for. */
  snapshot<T>(work: () => T): T
  /**
   * A transaction whose commit is flushed to the disk (synchronous = FULL for it), so that it
   * and everything committed before it survive a power cut. Other commits are not (NORMAL):
   * a power cut may lose the last of them, never the database's integrity.
   */
  durableTransaction<T>(work: () => T): T
  /** When the write-ahead log is folded into the database: never during `deferWhile`'s work (see WalCheckpoints). */
  readonly walCheckpoints: WalCheckpoints
  close(): void
}

export function openStore(dataDir: string): Store {
  // The folder first: whatever SQLite creates in it is out of others' reach from the start (a
  // folder Retrace did not create keeps its mode: see privateDataFolder). What stands in the
  // way is said in a sentence (data-folder.ts).
  prepareDataFolder(dataDir, DATABASE_FILE)
  const dbPath = join(dataDir, DATABASE_FILE)
  const db = openDatabase(dbPath)
  // SQLite gives a new WAL and shared-memory file the database file's mode.
  for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) privateFile(file)
  const walCheckpoints = new WalCheckpoints(db)
  const pricing = new SessionPricing(db)
  const notCaptured = new NotCapturedRepository(db)
  const store: Store = {
    dataDir,
    workspaces: new WorkspaceRepository(db),
    sessions: new SessionRepository(db),
    messages: new MessageRepository(db),
    checkpoints: new CheckpointRepository(db, notCaptured),
    notCaptured,
    rewinds: new RewindRepository(db),
    splits: new SessionSplitRepository(db, pricing),
    pricing,
    usage: new UsageRepository(db),
    tree: new TreeRepository(db),
    workspaceCoverage: new WorkspaceCoverageRepository(db),
    searchIndex: new SearchIndex(db),
    importFiles: new ImportFileRepository(db),
    unreadRecords: new UnreadRecordRepository(db),
    discoveredFiles: new DiscoveredFileRepository(db),
    recordedFiles: new RecordedFileRepository(db),
    workspaceListing: new WorkspaceListingRepository(db),
    sourceFolders: new SourceFolderRepository(db),
    sessionLinks: new SessionLinkRepository(db),
    continuations: new AgentContinuationRepository(db),
    sessionFolds: new SessionFoldRepository(db),
    merges: new SessionMergeRepository(db),
    journal: new JournalRepository(db),
    lineCounts: new LineCountRepository(db),
    fileOrigins: new FileOriginRepository(db),
    blobs: new BlobRepository(db),
    fileStates: new FileStateRepository(db),
    get inTransaction() {
      return db.inTransaction
    },
    transaction: (work) => writeTransaction(db, work),
    snapshot: (work) => db.transaction(work).deferred(),
    durableTransaction: (work) => {
      db.pragma('synchronous = FULL')
      try {
        return writeTransaction(db, work)
      } finally {
        db.pragma('synchronous = NORMAL')
      }
    },
    walCheckpoints,
    close: () => {
      walCheckpoints.stop()
      db.close()
    }
  }
  rememberDatabase(store, db)
  return store
}
