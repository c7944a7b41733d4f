import type { ScanInput } from '../protocol.ts'

/**
 * The workspace's preset deflate dictionary for one scan: the one given, or one this scan builds.
 * Until the workspace has one, the start of each text file read is kept (no NUL byte in it; what
 * a binary file starts with is rarely shared), and once the samples fill a dictionary, it is used.
 * Samples taken in walk order need no pass of their own. They do as well as evenly spaced ones on
 * the benchmark's workspace, and somewhat worse on node_modules, where the first folders are
 * less typical of the rest.
 */
export class DictionarySampler {
  /** The dictionary to deflate with: given, or built from the samples; null until then. */
  current: Buffer | null
  private readonly settings: ScanInput['deflateDictionary']
  private samples: Buffer[] = []
  private sampledBytes = 0
  /** A dictionary this scan built, sent with the next batch (before any row that needs it is stored). */
  private built: Buffer | null = null

  constructor(settings: ScanInput['deflateDictionary']) {
    this.settings = settings
    const given = settings.current
    this.current = given ? Buffer.from(given.buffer, given.byteOffset, given.byteLength) : null
  }

  /** Offer the `length` bytes of a text file just read to `offset` of the batch buffer. */
  sample(buffer: ArrayBuffer | null, offset: number, length: number): void {
    if (this.current || !buffer || length < 64) return
    const { bytes, sampleBytes } = this.settings
    const start = Buffer.from(buffer, offset, Math.min(length, sampleBytes))
    if (start.includes(0)) return
    this.samples.push(Buffer.from(start)) // a copy: the batch buffer is handed over
    this.sampledBytes += start.length
    if (this.sampledBytes < bytes) return
    this.current = Buffer.concat(this.samples).subarray(0, bytes)
    this.built = this.current
    this.samples = []
  }

  /** The dictionary built since the last call, if any: it travels with the next batch. */
  takeBuilt(): Buffer | null {
    const built = this.built
    this.built = null
    return built
  }
}
