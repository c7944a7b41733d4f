import { RetraceError } from '../../shared/contract'
import type { BlobRepository } from '../store/repositories/blobs'

/**
 * Preset deflate dictionaries, one per workspace. A project's small files share most of their
 * vocabulary (imports, keywords, identifiers, licence headers), which deflating each file on
 * its own cannot use. A workspace's first scan keeps the first `DICTIONARY_SAMPLE_BYTES` of
 * the text files it reads until they fill `DICTIONARY_BYTES` (scan/worker/dictionary-sampler.mts),
 * and deflates the rest of its inline content, and every later scan's, with that: real code
 * stores several percent smaller (figures in bench/README.md, the file journal).
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

/** Where a dictionary's bytes are kept: the blob store, verified when read. */
export interface DictionaryBlobs {
  read(hash: string): Buffer
  putBuffer(content: Buffer): { hash: string }
}

/**
 * The store's dictionaries: their bytes by id (verified when first read, then kept, in shared
 * memory so a writer thread gets them without a copy), which one a workspace deflates with,
 * and registering one a scan built.
 */
export class DeflateDictionaries {
  private readonly cache = new Map<number, Uint8Array>()

  constructor(
    private readonly rows: BlobRepository,
    private readonly blobs: DictionaryBlobs
  ) {}

  /** A dictionary's bytes; throws BLOB_UNAVAILABLE if it is not registered or its blob cannot be read. */
  bytes(id: number): Uint8Array {
    const known = this.cache.get(id)
    if (known) return known
    const hash = this.rows.dictionaryHash(id)
    if (hash === undefined) throw new RetraceError('BLOB_UNAVAILABLE', `The deflate dictionary ${id} is not in the store.`)
    const content = this.blobs.read(hash)
    const shared = new Uint8Array(new SharedArrayBuffer(content.length))
    shared.set(content)
    this.cache.set(id, shared)
    return shared
  }

  /** The workspace's dictionary, or null if it has none yet or it cannot be read (the next scan then builds another). */
  ofWorkspace(workspaceId: number): WorkspaceDictionary | null {
    const id = this.rows.dictionaryOfWorkspace(workspaceId)
    if (id === null) return null
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
    return this.rows.adoptDictionary(workspaceId, hash)
  }
}
