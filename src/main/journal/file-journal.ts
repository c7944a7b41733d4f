import { join } from 'node:path'
import type { Store } from '../store/store'
import { BlobStore } from './blob-store'
import type { WorkspaceDictionary } from './deflate-dictionary'
import { type JournalRepository, type FileKind, type FileVersion, type JournalOp, type Observed } from '../store/repositories/journal'
import { checkRelPath } from '../fs/paths'

/** A file change as an agent's tool reports it: content before and after (null = did not exist). */
export interface ToolFileChange {
  path: string | Buffer
  before: Buffer | null
  after: Buffer | null
  kind?: FileKind
  modeBefore?: number
  modeAfter?: number
  observed?: Observed
  /** The agent's tool call that made it (imports). */
  toolCallId?: string | null
}

export const DEFAULT_FILE_MODE = 0o644

/** The journal of one store: its blobs and its scopes/entries. */
export class FileJournal {
  readonly blobs: BlobStore
  readonly repo: JournalRepository

  constructor(private readonly store: Store) {
    this.blobs = new BlobStore(store.blobs, join(store.dataDir, 'blobs'))
    this.repo = store.journal
  }

  /** The scope of a session's turn, opened on first use. */
  turnScope(workspaceId: number, sessionRowId: number, turn: number): number {
    return this.repo.turnScope(sessionRowId, turn)?.id ?? this.repo.openScope({ workspaceId, sessionRowId, turn, kind: 'turn' })
  }

  /**
   * Record a write a tool made during a turn. The path is checked like any untrusted path;
   * both versions go to the blob store so the turn can be diffed and rewound.
   */
  recordToolChange(scope: { workspaceId: number; sessionRowId: number; turn: number }, change: ToolFileChange): number {
    const path = checkRelPath(change.path)
    return this.store.transaction(() => {
      const kind = change.kind ?? 'file'
      // Deflated like the workspace's scanned content, with its dictionary if it has one.
      const dictionary = this.blobs.dictionaries.ofWorkspace(scope.workspaceId)
      const before = change.before ? this.version(kind, change.before, change.modeBefore ?? DEFAULT_FILE_MODE, dictionary) : null
      const after = change.after ? this.version(kind, change.after, change.modeAfter ?? change.modeBefore ?? DEFAULT_FILE_MODE, dictionary) : null
      return this.repo.addEntry({
        scopeId: this.turnScope(scope.workspaceId, scope.sessionRowId, scope.turn),
        op: opFor(before, after),
        path,
        fromPath: null,
        before,
        after,
        observed: change.observed ?? 'tool',
        toolCallId: change.toolCallId ?? null
      })
    })
  }

  private version(kind: FileKind, content: Buffer, mode: number, dictionary: WorkspaceDictionary | null): FileVersion {
    const { hash, size } = this.blobs.putBuffer(content, dictionary)
    return { kind, hash, size, mode }
  }
}

export function opFor(before: FileVersion | null, after: FileVersion | null): JournalOp {
  if (!before) return 'create'
  if (!after) return 'delete'
  return before.hash === after.hash && before.kind === after.kind ? 'mode' : 'modify'
}
