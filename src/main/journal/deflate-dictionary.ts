import { RetraceError } from '../../shared/contract'
import type { Db } from '../store/database'
import type { BlobStore } from './blob-store'

/**
 * Preset deflate dictionaries, one per workspace. A project's small files share most of their
 * vocabulary (imports, keywords, identifiers, licence headers), which deflating each file on
 * its own cannot use. A workspace's first scan keeps the first `DICTIONARY_SAMPLE_BYTES` of
 * the text files it reads until they fill `DICTIONARY_BYTES` (scan/worker/dictionary-sampler.mts),
 * and deflates the rest of its inline content, and every later scan's, with that. Measured on real code:
 * node_modules' JavaScript 5-8% smaller, this repository's sources 12%; on the benchmark's
 * workspace, 7.7%.
 *
 * The dictionary is a blob like any other (verified when read), registered in
 * `deflate_dictionaries`; each row deflated with it names it by id, so the workspace may later
 * get another without any row becoming unreadable.
 */

/** deflate's window: a longer dictionary would not be used. */
export const DICTIONARY_BYTES = 32 * 1024
/** Measured: 512-byte samples beat 256 and 128 (more files' starts, less of each, did worse). */
export const DICTIONARY_SAMPLE_BYTES = 512

export interface WorkspaceDictionary {
  id: number
  bytes: Uint8Array
}

/**
 * The store's dictionaries: their bytes by id (verified when first read, then kept, in shared
 * memory so a writer thread gets them without a copy), which one a workspace deflates with,
 * and registering one a scan built.
 */
export class DeflateDictionaries {
  private readonly cache = new Map<number, Uint8Array>()
  private readonly hashStmt
  private readonly ofWorkspaceStmt
  private readonly insertStmt
  private readonly idStmt
  private readonly setWorkspaceStmt

  constructor(
    db: Db,
    private readonly blobs: BlobStore
  ) {
    this.hashStmt = db.prepare('SELECT hash FROM deflate_dictionaries WHERE id = ?').pluck()
    this.ofWorkspaceStmt = db.prepare('SELECT deflate_dictionary_id FROM workspaces WHERE id = ?').pluck()
    this.insertStmt = db.prepare('INSERT OR IGNORE INTO deflate_dictionaries (hash) VALUES (?)')
    this.idStmt = db.prepare('SELECT id FROM deflate_dictionaries WHERE hash = ?').pluck()
    this.setWorkspaceStmt = db.prepare('UPDATE workspaces SET deflate_dictionary_id = ? WHERE id = ?')
  }

  /** A dictionary's bytes; throws BLOB_UNAVAILABLE if it is not registered or its blob cannot be read. */
  bytes(id: number): Uint8Array {
    const known = this.cache.get(id)
    if (known) return known
    const hash = this.hashStmt.get(id) as string | undefined
    if (hash === undefined) throw new RetraceError('BLOB_UNAVAILABLE', `The deflate dictionary ${id} is not in the store.`)
    const content = this.blobs.read(hash)
    const shared = new Uint8Array(new SharedArrayBuffer(content.length))
    shared.set(content)
    this.cache.set(id, shared)
    return shared
  }

  /** The workspace's dictionary, or null if it has none yet or it cannot be read (the next scan then builds another). */
  ofWorkspace(workspaceId: number): WorkspaceDictionary | null {
    const id = this.ofWorkspaceStmt.get(workspaceId) as number | null | undefined
    if (id === null || id === undefined) return null
    try {
      return { id, bytes: this.bytes(id) }
    } catch {
      return null
    }
  }

  /**
   * Store a dictionary a scan built and make it the workspace's. Returns its id. Called inside
   * the transaction that stores the first rows deflated with it.
   */
  adopt(workspaceId: number, bytes: Uint8Array): number {
    const { hash } = this.blobs.putBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
    this.insertStmt.run(hash)
    const id = this.idStmt.get(hash) as number
    this.setWorkspaceStmt.run(id, workspaceId)
    return id
  }
}
