import { createHash } from 'node:crypto'
import { closeSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs'
import { Readable, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import type { ScanScope } from './scan-scope.mts'

const CHUNK_BYTES = 1024 * 1024

/**
 * One pass over a large file: sha256 and gzip into a fsynced temp file, memory bounded by the
 * stream buffers. The source and sink use our descriptors without owning them: fs streams
 * given an fd close it when a pipeline is torn down (on cancel), and our own close would then
 * hit a descriptor number that may already belong to another file.
 */
export async function readLarge(scope: ScanScope, fd: number, temp: string): Promise<{ length: number; hash: string }> {
  const hasher = createHash('sha256')
  let length = 0
  const source = new Readable({
    read() {
      try {
        scope.control.tick(true)
        const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
        const n = readSync(fd, chunk, 0, CHUNK_BYTES, length)
        hasher.update(chunk.subarray(0, n))
        length += n
        scope.counts.bytesHashed += n
        this.push(n === 0 ? null : chunk.subarray(0, n))
      } catch (error) {
        this.destroy(error as Error)
      }
    }
  })
  scope.openTemp = temp
  const out = openSync(temp, 'wx', 0o600)
  try {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        try {
          for (let offset = 0; offset < chunk.length; ) offset += writeSync(out, chunk, offset)
          done()
        } catch (error) {
          done(error as Error)
        }
      }
    })
    await pipeline(source, createGzip({ level: 1 }), sink)
    fsyncSync(out)
  } finally {
    closeSync(out)
  }
  return { length, hash: hasher.digest('hex') }
}
