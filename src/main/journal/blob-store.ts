import { createHash, randomBytes } from 'node:crypto'
import { chmodSync, closeSync, createReadStream, existsSync, createWriteStream, fchmodSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { FileHandle } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip, createGzip, deflateRawSync, gunzipSync, gzipSync, inflateRawSync } from 'node:zlib'
import { RetraceError } from '../../shared/contract'
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE, privateFolder, privateTree } from '../store/private-files'
import type { BlobRepository, BlobRow } from '../store/repositories/blobs'
import { pageFillingOrder } from './blob-pages'
import { fsyncAsync, fsyncPath, fsyncPathAsync, writeDurably } from './durable-file'
import type { StoredContent } from './blob-writer-protocol'
import { DeflateDictionaries, type WorkspaceDictionary } from './deflate-dictionary'
import { DigestStream } from './digest-stream'
import { explainDiskFull, isDiskFull } from './disk-full'
import { isProcessAlive, ownerOfTempName } from './process-owner'
import { INLINE_DEFLATE, MAX_DEFLATED_SHARE, MIN_DEFLATE_BYTES } from './shared-constants.mts'

/**
 * Content up to this size is kept inside SQLite: thousands of small files then cost one
 * transaction instead of thousands of fsynced files. Larger content is a gzip file.
 */
export const INLINE_MAX_BYTES = 256 * 1024

/** What a `blobs` row holds besides its content: the hash (64), the other columns and the record header. */
const ROW_OVERHEAD_BYTES = 100

export interface WriteOptions {
  /** fsync the file (the default). False: the caller makes it durable later, with others (see file-system-sync.ts). */
  durable?: boolean
}

export interface BlobRef {
  hash: string
  size: number
}

export const sha256 = (content: Buffer): string => createHash('sha256').update(content).digest('hex')

/**
 * Content-addressed storage for file snapshots. A blob is registered in SQLite only once its
 * bytes are durable, and every read is checked against its hash, so a blob can be missing but
 * never wrong: what cannot be verified is refused, never written to a user's file.
 */
export class BlobStore {
  /** The preset deflate dictionaries rows may be compressed with (see deflate-dictionary.ts). */
  readonly dictionaries: DeflateDictionaries

  constructor(
    private readonly rows: BlobRepository,
    readonly dir: string
  ) {
    // Snapshots of the user's files: private (see private-files.ts). A blobs folder found open
    // to others was left so by an earlier Retrace: everything in it is tightened once.
    if (privateFolder(dir)) privateTree(dir)
    privateFolder(this.tempDir)
    this.dictionaries = new DeflateDictionaries(rows, this)
  }

  /**
   * The order in which to store a batch of inline contents (`storedBytes`: as they will be
   * stored, deflated or raw) so their rows fill the database's pages (see blob-pages.ts).
   */
  insertionOrder<T>(items: readonly T[], storedBytes: (item: T) => number): T[] {
    return pageFillingOrder(items, (item) => storedBytes(item) + ROW_OVERHEAD_BYTES, this.rows.pageSize)
  }

  get tempDir(): string {
    return join(this.dir, 'tmp')
  }

  has(hash: string): boolean {
    return this.rows.has(hash)
  }

  /**
   * Present and readable as far as can be told without reading it: the row, and for a file
   * blob its file. (Content is still verified when it is read.)
   */
  available(hash: string): boolean {
    return !this.unavailableOf([hash]).has(hash)
  }

  /**
   * Of `hashes`, those not `available`: looked up together (one statement per few thousand),
   * for a plan that checks every file of a large rewind.
   */
  unavailableOf(hashes: string[]): Set<string> {
    const storage = this.storageOf(hashes)
    return new Set(
      hashes.filter((hash) => {
        const stored = storage.get(hash)
        return stored === undefined || (stored === 'file' && !existsSync(this.filePath(hash)))
      })
    )
  }

  /** Of `hashes`, those with no row in the store: `has` for many, looked up together. */
  absentOf(hashes: string[]): Set<string> {
    const storage = this.storageOf(hashes)
    return new Set(hashes.filter((hash) => !storage.has(hash)))
  }

  /** How each of `hashes` that has a row is stored. */
  private storageOf(hashes: string[]): Map<string, 'inline' | 'file'> {
    return this.rows.storageOf(hashes)
  }

  size(hash: string): number | null {
    return this.rows.size(hash)
  }

  /**
   * Register content another thread already hashed and raw-deflated (the scan worker), with the
   * preset dictionary `dictionaryId` if it used one (see deflate-dictionary.ts). Not re-hashed
   * here, to keep that work off this thread; like every blob it is verified when read.
   */
  putPacked(hash: string, size: number, deflated: Buffer, dictionaryId: number | null = null): BlobRef {
    this.register(hash, size, 'inline', 'deflate', deflated, dictionaryId)
    return { hash, size }
  }

  /**
   * Register inline content another thread hashed and found not worth deflating (the scan
   * worker): stored as it is, without trying to deflate it again. Verified when read.
   */
  putRaw(hash: string, content: Buffer): BlobRef {
    this.register(hash, content.length, 'inline', 'raw', content)
    return { hash, size: content.length }
  }

  /**
   * Store content held in memory (synchronous, fine inside a transaction for small content),
   * deflated with `dictionary` (its workspace's, see deflate-dictionary.ts) when one is given.
   */
  putBuffer(content: Buffer, dictionary: WorkspaceDictionary | null = null): BlobRef {
    const hash = sha256(content)
    if (this.has(hash)) return { hash, size: content.length }
    if (content.length <= INLINE_MAX_BYTES) {
      const options = dictionary ? { ...INLINE_DEFLATE, dictionary: dictionary.bytes } : INLINE_DEFLATE
      const packed = content.length >= MIN_DEFLATE_BYTES ? deflateRawSync(content, options) : null
      if (packed && packed.length <= content.length * MAX_DEFLATED_SHARE) this.register(hash, content.length, 'inline', 'deflate', packed, dictionary?.id ?? null)
      else this.register(hash, content.length, 'inline', 'raw', content)
    } else {
      const temp = this.tempPath()
      try {
        writeDurably(temp, gzipSync(content, { level: 1 }), PRIVATE_FILE_MODE)
        this.commitFile(temp, hash)
      } catch (error) {
        rmSync(temp, { force: true }) // e.g. ENOSPC: leave no partial file behind
        throw explainDiskFull(error, this.dir)
      }
      this.register(hash, content.length, 'file', 'raw', null)
    }
    return { hash, size: content.length }
  }

  /**
   * Store a file's current content, streamed: hashed and compressed in one pass, so a file
   * larger than memory works (small content is deflated with `dictionary`, as by `putBuffer`).
   * Returns the hash of exactly the bytes that were stored.
   */
  async putFile(path: string | Buffer, dictionary: WorkspaceDictionary | null = null): Promise<BlobRef> {
    if (statSync(path).size <= INLINE_MAX_BYTES) {
      const content = readFileSync(path)
      if (content.length <= INLINE_MAX_BYTES) return this.putBuffer(content, dictionary)
    }
    return this.putStream(createReadStream(path))
  }

  /**
   * As `putFile`, for a file the caller opened (and checked, e.g. opened without following a
   * link): what is stored is what this handle reads, from its start. The handle stays open.
   */
  async putOpenFile(handle: FileHandle, dictionary: WorkspaceDictionary | null = null): Promise<BlobRef> {
    if ((await handle.stat()).size <= INLINE_MAX_BYTES) {
      const content = Buffer.alloc(INLINE_MAX_BYTES + 1)
      let length = 0
      for (;;) {
        const { bytesRead } = await handle.read(content, length, content.length - length, length)
        length += bytesRead
        if (bytesRead === 0 || length === content.length) break
      }
      if (length <= INLINE_MAX_BYTES) return this.putBuffer(content.subarray(0, length), dictionary)
    }
    return this.putStream(handle.createReadStream({ start: 0, autoClose: false }))
  }

  private async putStream(source: Readable): Promise<BlobRef> {
    const temp = this.tempPath()
    const digest = new DigestStream()
    try {
      await pipeline(source, digest, createGzip({ level: 1 }), createWriteStream(temp, { mode: PRIVATE_FILE_MODE }))
      fsyncPath(temp)
    } catch (error) {
      rmSync(temp, { force: true })
      throw explainDiskFull(error, this.dir)
    }
    const hash = digest.hex()
    if (this.has(hash)) {
      unlinkSync(temp)
    } else {
      this.commitFile(temp, hash)
      this.register(hash, digest.size, 'file', 'raw', null)
    }
    return { hash, size: digest.size }
  }

  /**
   * Take over a gzip file another thread wrote (hashed and fsynced) in `tempDir`: it becomes
   * the blob `hash`, or is discarded if that blob already exists.
   */
  adoptTempFile(temp: string, hash: string, size: number): BlobRef {
    if (this.has(hash)) {
      rmSync(temp, { force: true })
    } else {
      this.commitFile(temp, hash)
      this.register(hash, size, 'file', 'raw', null)
    }
    return { hash, size }
  }

  /** The content of a blob, verified. For content too large for memory use `writeTo`. */
  read(hash: string): Buffer {
    return this.decode(hash, this.row(hash))
  }

  private decode(hash: string, row: BlobRow): Buffer {
    let content: Buffer
    if (row.storage === 'inline') {
      try {
        content = row.encoding === 'deflate' ? inflateRawSync(row.data ?? Buffer.alloc(0), this.inflateOptions(row)) : (row.data ?? Buffer.alloc(0))
      } catch (error) {
        if (error instanceof RetraceError) throw error
        throw this.unavailable(hash, `its stored data cannot be decoded (${(error as Error).message})`)
      }
    } else {
      try {
        content = gunzipSync(readFileSync(this.filePath(hash)))
      } catch (error) {
        throw this.unavailable(hash, `its file cannot be read (${(error as Error).message})`)
      }
    }
    if (sha256(content) !== hash) throw this.unavailable(hash, 'its content does not match its hash (corrupt)')
    return content
  }

  /**
   * Write a blob's content to `target` (a fresh temp file the caller will rename into place),
   * streamed and verified, with exactly `mode`, fsynced unless `durable` is false. On any mismatch the target is
   * removed and nothing else is touched.
   */
  async writeTo(hash: string, target: string | Buffer, mode = 0o644, { durable = true }: WriteOptions = {}): Promise<void> {
    const row = this.row(hash)
    if (row.storage === 'inline') {
      const content = this.decode(hash, row)
      // The write is a copy into the page cache: done here. Only the fsync waits for the disk,
      // in the thread pool, so several files' fsyncs are in flight at once (see rewind/apply).
      const fd = openSync(target, 'wx', mode)
      try {
        for (let offset = 0; offset < content.length; ) offset += writeSync(fd, content, offset)
        fchmodSync(fd, mode) // exactly: open's mode is filtered by the umask
        if (durable) await fsyncAsync(fd)
      } finally {
        closeSync(fd)
      }
      return
    }
    const digest = new DigestStream()
    try {
      await pipeline(createReadStream(this.filePath(hash)), createGunzip(), digest, createWriteStream(target, { mode, flags: 'wx' }))
      chmodSync(target, mode) // exactly: open's mode is filtered by the umask
      if (durable) await fsyncPathAsync(target) // in the thread pool: a large file's flush must not stall other work
    } catch (error) {
      rmSync(target, { force: true })
      if (isDiskFull(error)) throw explainDiskFull(error, dirname(target.toString())) // the write failed, not the read
      throw this.unavailable(hash, `its file cannot be read (${(error as Error).message})`)
    }
    if (digest.hex() !== hash) {
      rmSync(target, { force: true })
      throw this.unavailable(hash, 'its content does not match its hash (corrupt)')
    }
  }

  /**
   * A blob's bytes as stored, for a writer thread to decode and verify, or null if it is stored
   * as a file (large: streamed, never held whole). Throws BLOB_UNAVAILABLE if it is not in the store.
   */
  inlineContent(hash: string): StoredContent | null {
    const row = this.row(hash)
    return row.storage === 'inline' ? this.storedContent(row) : null
  }

  /**
   * `inlineContent` of many blobs, read together (one statement per few thousand): a large
   * rewind hands each of its lanes the stored bytes of every file it writes. Absent from the
   * map: not in the store.
   */
  inlineContentsOf(hashes: string[]): Map<string, StoredContent | null> {
    return new Map(this.rows.rowsOf(hashes).map((row) => [row.hash, row.storage === 'inline' ? this.storedContent(row) : null]))
  }

  private storedContent(row: BlobRow): StoredContent {
    const dictionary = this.inflateOptions(row)?.dictionary
    return { hash: row.hash, encoding: row.encoding, data: row.data ?? Buffer.alloc(0), ...(dictionary ? { dictionary } : {}) }
  }

  /**
   * Remove temp files left by an interrupted write (nothing is registered for them) — only
   * those whose writing process is gone: a live one may still be finishing them.
   */
  cleanTemp(): number {
    const stale = readdirSync(this.tempDir).filter((name) => {
      const owner = ownerOfTempName(name)
      return owner === null || !isProcessAlive(owner)
    })
    for (const name of stale) rmSync(join(this.tempDir, name), { force: true })
    return stale.length
  }

  /** Delete blobs nothing refers to any more, older than `graceMs` (see BlobRepository.collectUnreferenced). */
  collectGarbage(graceMs = 60 * 60 * 1000): { removed: number; bytes: number } {
    const collected = this.rows.collectUnreferenced(Date.now() - graceMs)
    for (const blob of collected) if (blob.storage === 'file') rmSync(this.filePath(blob.hash), { force: true })
    return { removed: collected.length, bytes: collected.reduce((sum, blob) => sum + blob.size, 0) }
  }

  /** How to inflate a row: with its preset dictionary, if it was deflated with one. */
  private inflateOptions(row: BlobRow): { dictionary: Uint8Array } | undefined {
    if (row.dictionaryId === null) return undefined
    try {
      return { dictionary: this.dictionaries.bytes(row.dictionaryId) }
    } catch (error) {
      throw this.unavailable(row.hash, `the dictionary it was compressed with cannot be read (${(error as Error).message})`)
    }
  }

  filePath(hash: string): string {
    return join(this.dir, hash.slice(0, 2), `${hash}.gz`)
  }

  /** Insert a blob's row (no-op if the blob is already there: content-addressed, it is the same). */
  private register(hash: string, size: number, storage: 'inline' | 'file', encoding: 'raw' | 'deflate', data: Buffer | null, dictionaryId: number | null = null): void {
    this.rows.insert({ hash, size, storage, encoding, data, dictionaryId, createdAt: Date.now() })
  }

  private row(hash: string): BlobRow {
    const row = this.rows.row(hash)
    if (!row) throw this.unavailable(hash, 'it is not in the store')
    return row
  }

  private tempPath(): string {
    return join(this.tempDir, `${process.pid}-${randomBytes(8).toString('hex')}.tmp`)
  }

  private commitFile(temp: string, hash: string): void {
    const final = this.filePath(hash)
    mkdirSync(join(this.dir, hash.slice(0, 2)), { recursive: true, mode: PRIVATE_FOLDER_MODE })
    // Exactly 0600 whoever wrote the temp (a worker, under any umask); the folder's creation
    // mode is filtered by the umask too, but it sits in the 0700 blobs folder.
    if (process.platform !== 'win32') chmodSync(temp, PRIVATE_FILE_MODE)
    renameSync(temp, final)
    fsyncPath(join(this.dir, hash.slice(0, 2)))
  }

  /** The error that refuses the files needing `hash` (also for what a writer thread found corrupt). */
  unavailable(hash: string, why: string): RetraceError {
    return new RetraceError('BLOB_UNAVAILABLE', `The saved snapshot ${hash.slice(0, 12)}… cannot be used: ${why}. Files that need it are refused.`)
  }
}

