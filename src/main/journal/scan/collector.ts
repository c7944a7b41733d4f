import { rmSync } from 'node:fs'
import { RetraceError } from '../../../shared/contract'
import type { Store } from '../../store/store'
import { sha256, type BlobStore } from '../blob-store'
import { displayPath, pathOfKey, relPathProblem, type PathKey, type RelPath } from '../../fs/paths'
import type { WireFile, WireSkip } from './protocol'
import type { ScannedFile, ScanSkip } from './types'

export interface DictionaryHandling {
  /** The id of the dictionary the worker was given. */
  current: number | null
  adopt: (bytes: Uint8Array) => number
}

/**
 * The main-thread half of a scan: stores the content the worker hands over and builds the
 * result. Everything here is synchronous, so a batch is one SQLite transaction with no await
 * inside it.
 */
export class ScanCollector {
  readonly files = new Map<PathKey, ScannedFile>()
  /** Files read too close to their last change to trust their stat next time. */
  readonly racy = new Set<PathKey>()
  readonly skipped: ScanSkip[] = []

  constructor(
    private readonly transaction: Store['transaction'],
    private readonly blobs: BlobStore,
    /** The previous scan's entries, indexed as in the cache the worker was given. */
    private readonly cached: readonly (readonly [PathKey, ScannedFile])[],
    /** The workspace's deflate dictionary (the one the worker was given), and how to adopt one the worker built. */
    private readonly dictionaries: DictionaryHandling
  ) {
    this.dictionary = dictionaries.current
  }

  private dictionary: number | null

  /**
   * Store a batch's content (and first the dictionary it carries, if the worker just built
   * one), then record its entries in walk order (see `order` in the protocol).
   */
  accept(files: WireFile[], buffer: ArrayBuffer | null, order?: Int32Array, dictionary?: Uint8Array): void {
    if (dictionary || files.some((file) => file.source === 'inline')) this.store(files, buffer, dictionary)
    // Outside the transaction: adopting renames a file and fsyncs a folder, which a rollback could not undo.
    for (const file of files) if (file.source === 'temp' && file.temp) this.blobs.adoptTempFile(file.temp, file.hash, file.size)
    if (!order) {
      for (const file of files) this.record(file)
      return
    }
    for (const entry of order) {
      if (entry >= 0) this.reuse(entry)
      else this.record(files[-1 - entry] as WireFile)
    }
  }

  /** The inline content of a batch, in one transaction. */
  private store(files: WireFile[], buffer: ArrayBuffer | null, dictionary: Uint8Array | undefined): void {
    const content = buffer ? Buffer.from(buffer) : null
    // In the order that fills the database's pages, not walk order (see blob-pages.ts).
    const inline = this.blobs.insertionOrder(
      files.filter((file) => file.source === 'inline'),
      (file) => file.packed ?? file.size
    )
    this.transaction(() => {
      if (dictionary) this.dictionary = this.dictionaries.adopt(dictionary)
      for (const file of inline) {
        if (!content) throw new RetraceError('INTERNAL', 'The workspace scan sent file content without its buffer.')
        if (typeof file.packed === 'number') {
          // Deflated by the worker; its hash is checked whenever the blob is read.
          this.blobs.putPacked(file.hash, file.size, content.subarray(file.offset, file.offset + file.packed), file.withDictionary ? this.requireDictionary() : null)
          continue
        }
        const raw = content.subarray(file.offset, file.offset + file.size)
        // The worker hashed these bytes too: a mismatch would mean a protocol bug, never store it silently.
        if (sha256(raw) !== file.hash) throw new RetraceError('INTERNAL', `The workspace scan sent content for ${displayPath(file.key as PathKey)} that does not match its hash.`)
        // Raw because the worker found deflating it not worth it: not tried again here.
        this.blobs.putRaw(file.hash, raw)
      }
    })
  }

  private requireDictionary(): number {
    if (this.dictionary === null) throw new RetraceError('INTERNAL', 'The workspace scan sent content deflated with a dictionary it never sent.')
    return this.dictionary
  }

  /** A batch that arrives after the scan was abandoned: only its temp files need cleaning up. */
  discard(files: WireFile[]): void {
    for (const file of files) if (file.temp) rmSync(file.temp, { force: true })
  }

  addSkipped(skips: WireSkip[]): void {
    for (const skip of skips) this.skipped.push({ path: displayPath(skip.key as PathKey), key: skip.key as PathKey, folder: skip.folder, reason: skip.reason })
  }

  /**
   * A file whose stat matched its previous entry: that entry is the result. Its path is not
   * checked again: it passed `journalable` when it was first recorded (only scans write
   * `file_states`), and every rewind checks paths again before touching them.
   */
  private reuse(index: number): void {
    const entry = this.cached[index]
    if (!entry) throw new RetraceError('INTERNAL', `The workspace scan named cache entry ${index}, which it was not given.`)
    this.files.set(entry[0], entry[1])
  }

  private record(file: WireFile): void {
    const key = file.key as PathKey
    const path = this.journalable(key)
    if (!path) return
    this.files.set(key, { path, kind: file.kind, size: file.size, mode: file.mode, hash: file.hash, mtimeNs: file.mtimeNs, ctimeNs: file.ctimeNs, ino: file.ino })
    if (file.racy) this.racy.add(key)
  }

  /**
   * The journal refuses names it could not restore here (`a\\b`, a path over 4096 bytes, `con`
   * on Windows…): say so now, as a skip, instead of recording a file a rewind would refuse.
   */
  private journalable(key: PathKey): RelPath | null {
    const path = pathOfKey(key)
    const problem = relPathProblem(path)
    if (problem === null) return path
    this.skipped.push({ path: displayPath(key), key, folder: false, reason: `Retrace cannot record this name: ${problem}` })
    return null
  }
}
