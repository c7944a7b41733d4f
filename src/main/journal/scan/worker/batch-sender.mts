import type { ScanInput, WireFile } from '../protocol.ts'
import type { DictionarySampler } from './dictionary-sampler.mts'
import type { InlinePacker } from './inline-packer.mts'
import { PROGRESS_MS, type ScanControl } from './scan-control.mts'
import { Cancelled } from './scan-errors.mts'

const BATCH_FILES = 500
/** Unchanged files cost four bytes each in a batch; this many of them make one. */
const BATCH_ENTRIES = 4096
/** Batches handed over and not yet stored by the parent, beyond which the walk waits. */
const MAX_IN_FLIGHT = 4

/**
 * One scan's batches: recorded files and the buffer of their inline content, handed over to the
 * parent when full, when progress is due, and at the end. Flow control keeps at most a few
 * batches in flight, so a fast disk and a slow database cannot pile gigabytes of content up in
 * the parent's message queue.
 */
export class BatchSender {
  /** Entries recorded so far (read or unchanged), counted against `maxFiles`. */
  recorded = 0
  /** The batch is full, or progress is due: hand it over before the next entry. */
  handOverDue = false
  /** Inline content of the batch's files, and how much of it is in use. */
  buffer: ArrayBuffer | null = null
  used = 0
  private files: WireFile[] = []
  /** The batch's entries in walk order (see `order` in the protocol). */
  private order: number[] = []
  private sent = 0
  /** How many batches the parent has stored (shared with it: ScanInput.flow). */
  private readonly stored: Int32Array
  private readonly bufferBytes: number
  private readonly control: ScanControl
  private readonly packer: InlinePacker
  private readonly dictionary: DictionarySampler

  constructor(input: ScanInput, control: ScanControl, packer: InlinePacker, dictionary: DictionarySampler) {
    this.stored = new Int32Array(input.flow)
    this.bufferBytes = Math.max(4 * 1024 * 1024, input.inlineMaxBytes)
    this.control = control
    this.packer = packer
    this.dictionary = dictionary
  }

  record(file: WireFile): void {
    this.recorded++
    this.order.push(-1 - this.files.length)
    this.files.push(file)
    if (this.files.length >= BATCH_FILES) this.handOverDue = true
  }

  /** An unchanged file: the parent already has its entry, so only its index travels. */
  recordCached(index: number): void {
    this.recorded++
    this.order.push(index)
    if (this.order.length >= BATCH_ENTRIES) this.handOverDue = true
  }

  /**
   * Room for `size` bytes at `used` in the batch buffer; finished files are handed over first if
   * it is full. The buffer is not zero-filled (allocUnsafeSlow: its own ArrayBuffer, not the
   * pool's): clearing 4 MiB per batch cost more than a small edit's whole read, and the parent
   * reads only the ranges files were read into.
   */
  async room(size: number): Promise<Uint8Array> {
    if (this.buffer && this.used + size > this.buffer.byteLength) await this.flush()
    this.buffer ??= Buffer.allocUnsafeSlow(this.bufferBytes).buffer
    return new Uint8Array(this.buffer, this.used, size)
  }

  /** Hand the batch over, once the deflate helper has answered for its files and the parent has room for it. */
  async flush(): Promise<void> {
    this.handOverDue = false
    if (this.order.length === 0) return
    await this.packer.settled()
    this.awaitRoomInFlight()
    this.sent++
    const content = this.used > 0 ? this.buffer : null
    const entries = Int32Array.from(this.order)
    const built = this.dictionary.takeBuilt()
    const dictionary = built ? { dictionary: new Uint8Array(built) } : {}
    this.control.post({ type: 'batch', files: this.files, buffer: content, order: entries, ...dictionary }, content ? [content, entries.buffer] : [entries.buffer])
    this.files = []
    this.order = []
    if (content) [this.buffer, this.used] = [null, 0]
  }

  /** Temp files of the files not handed over yet: orphans if the scan fails. */
  pendingTemps(): string[] {
    return this.files.flatMap((file) => (file.temp ? [file.temp] : []))
  }

  /** Wait (blocking, this thread has nothing else to do) until the parent has stored all but a few batches. */
  private awaitRoomInFlight(): void {
    for (let done = Atomics.load(this.stored, 0); this.sent - done >= MAX_IN_FLIGHT; done = Atomics.load(this.stored, 0)) {
      Atomics.wait(this.stored, 0, done, PROGRESS_MS)
      if (this.control.cancelRequested()) throw new Cancelled()
    }
  }
}
