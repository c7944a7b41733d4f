import { createHash } from 'node:crypto'
import { Transform, type TransformCallback } from 'node:stream'

/** Streams bytes through unchanged while hashing (sha256) and counting them. */
export class DigestStream extends Transform {
  private readonly hasher = createHash('sha256')
  size = 0
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hasher.update(chunk)
    this.size += chunk.length
    done(null, chunk)
  }
  hex(): string {
    return this.hasher.digest('hex')
  }
}
