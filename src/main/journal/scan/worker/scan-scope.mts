import type { MessagePort } from 'node:worker_threads'
import type { ScanInput, WireCounts, WireSkip } from '../protocol.ts'
import { BatchSender } from './batch-sender.mts'
import { DictionarySampler } from './dictionary-sampler.mts'
import type { InlinePacker } from './inline-packer.mts'
import { PreviousScan } from './previous-scan.mts'
import { ScanControl } from './scan-control.mts'
import { codeOf, Fault } from './scan-errors.mts'

const SLASH = Buffer.from('/')
const mib = (bytes: number): string => `${(bytes / 1024 ** 2).toFixed(1)} MiB`

/**
 * The state of one scan, created for its `scan` message and dropped when it ends: between scans
 * the worker holds nothing of the last one (its cache can be large). Only the InlinePacker, the
 * worker's, outlives it.
 */
export class ScanScope {
  readonly input: ScanInput
  readonly root: Buffer
  readonly counts: WireCounts = { filesSeen: 0, filesHashed: 0, bytesHashed: 0, reusedFromCache: 0 }
  readonly skipped: WireSkip[] = []
  readonly previous: PreviousScan
  readonly control: ScanControl
  readonly dictionary: DictionarySampler
  readonly packer: InlinePacker
  readonly batches: BatchSender
  /** The temp file of the large file being read, if any: removed if the scan stops. */
  openTemp: string | null = null

  constructor(input: ScanInput, port: MessagePort, packer: InlinePacker) {
    this.input = input
    this.root = Buffer.from(input.root)
    this.previous = new PreviousScan(input.cache)
    this.control = new ScanControl(port, this.counts, () => (this.batches.handOverDue = true))
    this.dictionary = new DictionarySampler(input.deflateDictionary)
    this.packer = packer
    this.batches = new BatchSender(input, this.control, packer, this.dictionary)
    packer.beginScan(input.deflateWorker)
  }

  /** The absolute path of `rel` (path bytes relative to the root). */
  abs(rel: Buffer): Buffer {
    return rel.length === 0 ? this.root : Buffer.concat([this.root, SLASH, rel])
  }

  skip(key: string, reason: string, folder = false): void {
    this.skipped.push({ key, folder, reason })
  }

  tooLarge(size: number): string {
    return `it is larger than the ${mib(this.input.maxFileBytes)} file size limit (${mib(size)})`
  }

  /** Run one fs call for `key`: a vanished entry gives null, a denied one is skipped with a reason, anything else stops the scan naming the path. */
  guarded<T>(key: string, folder: boolean, call: () => T): T | null {
    try {
      return call()
    } catch (error) {
      const code = codeOf(error)
      if (code === 'ENOENT' || code === 'ENOTDIR') return null
      if (code === 'EACCES' || code === 'EPERM') this.skip(key, `permission denied: the ${folder ? 'folder' : 'file'} could not be read`, folder)
      else if (code === 'ELOOP' || code === 'EINVAL') this.skip(key, 'it changed type while being scanned') // O_NOFOLLOW hit a link; readlink hit a non-link
      else if (code === 'ENAMETOOLONG') this.skip(key, 'its path is too long for the operating system', folder)
      else throw new Fault(key, error)
      return null
    }
  }
}
