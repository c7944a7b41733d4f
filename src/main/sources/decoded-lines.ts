import { decodedPieces, sha256 } from './compressed-files'
import { LARGE_LINE_BYTES, MAX_LINE_BYTES, type ReadLine } from './line-reader'

/**
 * The complete lines of a compressed file from decoded byte `start`, as line-reader.ts gives a
 * plain file's: each with the decoded offset it starts at; a last line without its newline is
 * not returned; blank lines are passed over. The file is decoded as a stream, the bytes before
 * `start` only hashed as they go by, so a large rollout is never in memory whole; a line longer
 * than MAX_LINE_BYTES is reported by its length, not held.
 *
 * It also remembers what identifies what was read (the hashes a plain file's import takes with
 * pread): the first `headBytes` decoded bytes, and the `tailBytes` before the end of the last
 * line it returned (or before `start`, before any).
 */
export class DecodedLines {
  private first: Buffer = Buffer.alloc(0)
  /** The decoded bytes just before `windowEnd` (at most tailBytes of them). */
  private window: Buffer = Buffer.alloc(0)
  private windowEnd = 0
  /** Decoded bytes in all, once the whole file was decoded. */
  size: number | null = null

  constructor(
    private readonly path: string,
    private readonly headBytes: number,
    private readonly tailBytes: number
  ) {}

  /** sha256 of the first min(headBytes, end) decoded bytes (all of them were seen: end ≤ what was decoded). */
  head(end: number): string {
    return sha256(this.first.subarray(0, Math.min(this.headBytes, end)))
  }

  /** sha256 of the tailBytes before `end`: the end of the last line returned, or `start`. */
  tail(end: number): string {
    if (end !== this.windowEnd) throw new Error(`No tail kept at ${end} of ${this.path} (kept at ${this.windowEnd}).`)
    return sha256(this.window)
  }

  async *lines(start: number): AsyncGenerator<ReadLine> {
    let position = 0
    let lineStart = start
    /** The current line's bytes (only its last tailBytes once it is too long to keep). */
    let pieces: Buffer[] = []
    let length = 0
    /** Blank lines after the last line returned: part of the tail once a line follows them. */
    let blank: Buffer[] = []
    this.window = Buffer.alloc(0)
    this.windowEnd = 0 // the bytes before `start` move it there
    for await (const piece of decodedPieces(this.path)) {
      if (this.first.length < this.headBytes) this.first = Buffer.concat([this.first, piece.subarray(0, this.headBytes - this.first.length)])
      let from = 0
      if (position < start) {
        from = Math.min(piece.length, start - position)
        this.keep([piece.subarray(0, from)])
      }
      for (;;) {
        const newline = piece.indexOf(0x0a, from)
        if (newline === -1) break
        const part = piece.subarray(from, newline + 1)
        const end = position + newline + 1
        const lineBytes = length + part.length - 1
        const bytes = [...pieces, part]
        if (lineBytes > MAX_LINE_BYTES) {
          this.keep([...blank, ...bytes], end)
          blank = []
          yield { offset: lineStart, end, tooLong: lineBytes }
        } else if (lineBytes >= LARGE_LINE_BYTES) {
          this.keep([...blank, ...bytes], end)
          blank = []
          yield { offset: lineStart, end, bytes: Buffer.concat(bytes).subarray(0, lineBytes) }
        } else {
          let text = Buffer.concat(bytes).toString('utf8', 0, lineBytes)
          if (text.endsWith('\r')) text = text.slice(0, -1)
          if (text.trim() === '') blank.push(...bytes)
          else {
            this.keep([...blank, ...bytes], end)
            blank = []
            yield { offset: lineStart, end, text }
          }
        }
        pieces = []
        length = 0
        lineStart = end
        from = newline + 1
      }
      if (from < piece.length) {
        const rest = piece.subarray(from)
        pieces.push(rest)
        length += rest.length
        if (length > MAX_LINE_BYTES) pieces = [lastBytes(pieces, this.tailBytes)]
      }
      position += piece.length
    }
    this.size = position
  }

  /** The window moves on over these bytes (to `end`, or by their length). */
  private keep(bytes: Buffer[], end?: number): void {
    const added = bytes.reduce((sum, piece) => sum + piece.length, 0)
    this.window = lastBytes([this.window, ...bytes], this.tailBytes)
    this.windowEnd = end ?? this.windowEnd + added
  }
}

/** The last `bytes` of these pieces together, copying only those. */
function lastBytes(pieces: Buffer[], bytes: number): Buffer {
  const taken: Buffer[] = []
  let length = 0
  for (let index = pieces.length - 1; index >= 0 && length < bytes; index--) {
    const piece = pieces[index] ?? Buffer.alloc(0)
    const part = piece.subarray(Math.max(0, piece.length - (bytes - length)))
    taken.unshift(part)
    length += part.length
  }
  return Buffer.concat(taken, length)
}
