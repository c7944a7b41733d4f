import { deflateRawSync } from 'node:zlib'
import { INLINE_DEFLATE, MIN_DEFLATE_BYTES } from '../../shared-constants.mts'
import type { ScanInput, WireFile } from '../protocol.ts'
import { DeflateHelper } from './deflate-helper.mts'
import { keepIfWorthIt } from './keep-if-worth-it.mts'

/**
 * Deflates inline content for the scans of one worker: on the deflate helper's thread if it
 * takes a file, else here. Compression never runs on the main thread. Lives as long as the
 * worker, not one scan: the helper it starts is kept from scan to scan (a thread start costs
 * tens of milliseconds), and when to start it depends on all the bytes deflated so far.
 */
export class InlinePacker {
  private helper: DeflateHelper | null = null
  /** Bytes this worker deflated itself, over all its scans. */
  private deflatedHere = 0

  /** A scan starts: a failed helper, or one of another script, is ended; answers due to the last scan are dropped. */
  beginScan(deflateWorker: string | null): void {
    if (this.helper && (this.helper.failed || this.helper.path !== deflateWorker)) {
      void this.helper.end()
      this.helper = null
    }
    this.helper?.forget()
  }

  /** Undefined when there is no helper to wait for. */
  settled(): Promise<void> | undefined {
    return this.helper?.settled()
  }

  /**
   * Deflate an inline file's bytes (at `file.offset` of `buffer`) in place, with `dictionary`
   * when there is one. Returns how many bytes the file keeps in the buffer: all of them while
   * the helper has not answered.
   */
  pack(file: WireFile, buffer: ArrayBuffer | null, dictionary: Buffer | null, input: ScanInput): number {
    if (!buffer || file.size < MIN_DEFLATE_BYTES) return file.size
    if (this.helper?.take(file, buffer, dictionary)) return file.size
    // The helper starts once this worker has deflated enough itself (see DEFLATE_HELPER_FROM_BYTES in scan.ts).
    this.deflatedHere += file.size
    if (input.deflateWorker && !this.helper && this.deflatedHere >= input.deflateHelperFromBytes) this.helper = new DeflateHelper(input.deflateWorker)
    const raw = new Uint8Array(buffer, file.offset, file.size)
    keepIfWorthIt(file, raw, deflateRawSync(raw, dictionary ? { ...INLINE_DEFLATE, dictionary } : INLINE_DEFLATE), dictionary !== null)
    return file.packed ?? file.size
  }
}
