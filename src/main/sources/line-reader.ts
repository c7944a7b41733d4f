import { fstatSync, read, readSync } from 'node:fs'
import { promisify } from 'node:util'

const readAsync = promisify(read)

const CHUNK_BYTES = 1024 * 1024
/**
 * Longer lines are reported as skipped, never held in memory. While a line is imported it is in
 * memory several times over (its bytes, its text, its parsed values, SQLite's copies of what is
 * stored), so this bounds what one line can cost. Claude Code `progress` lines (streaming
 * snapshots the parser ignores anyway) have been seen at 70–95 MB: they are reported as skipped.
 */
export const MAX_LINE_BYTES = 48 * 1024 * 1024

/**
 * Lines this long or longer are handed over as bytes, not decoded: the reader's caller weighs
 * them first (parse-thread/line-cost.ts), and decodes only those it can parse where it runs.
 */
export const LARGE_LINE_BYTES = 256 * 1024

/** A complete line: where it starts, where the next one starts, and its text (its bytes, if large; its length, if too long). */
export type ReadLine = { offset: number; end: number; text: string } | { offset: number; end: number; bytes: Buffer } | { offset: number; end: number; tooLong: number }

/** A large line's text, as the reader would have given it (null: blank). */
export function largeLineText(bytes: Buffer): string | null {
  let text = bytes.toString('utf8')
  if (text.endsWith('\r')) text = text.slice(0, -1)
  return text.trim() === '' ? null : text
}

/**
 * The complete lines of a file (an open descriptor) from byte `start`, each with the byte offset
 * it starts at. A last line without its newline is not returned: the agent may still be writing
 * it, and the next read starts there. Blank lines are passed over silently.
 *
 * Chunks are read synchronously: they are nearly always in the page cache, where an asynchronous
 * read costs a trip through the thread pool worth more than the read itself (importing many
 * small files would spend much of its time waiting for them). A long line is read
 * asynchronously: it is a large allocation, and while the read is pending the event loop is
 * idle, which is when V8 gives memory back (reading them synchronously raises the peak of a
 * history of long lines).
 *
 * Lines within one chunk are decoded from it directly. A line that spans chunks is not
 * gathered piece by piece: once its end is found, it is read again in one go into a buffer of
 * its size (the bytes are in the page cache), so a long line is in memory once as bytes and
 * once as text, never as pieces plus their concatenation.
 */
export async function* readCompleteLines(fd: number, start: number): AsyncGenerator<ReadLine> {
  let position = start
  let lineStart = start
  // Sized for what is left to read: a small file's import allocates kilobytes, not a megabyte.
  const buffer = Buffer.allocUnsafe(Math.max(64 * 1024, Math.min(CHUNK_BYTES, fstatSync(fd).size - start + 1)))
  for (;;) {
    const bytesRead = readSync(fd, buffer, 0, buffer.length, position)
    if (bytesRead === 0) return
    const read = buffer.subarray(0, bytesRead) // searched alone: the rest of the buffer is stale
    let from = 0
    for (;;) {
      const newline = read.indexOf(0x0a, from)
      if (newline === -1) break
      const end = position + newline + 1
      const length = end - 1 - lineStart
      if (length > MAX_LINE_BYTES) yield { offset: lineStart, end, tooLong: length }
      else if (length >= LARGE_LINE_BYTES) {
        // Copied out of the buffer (or read whole): the caller may hold it past the next read.
        const bytes = lineStart >= position ? Buffer.from(buffer.subarray(from, newline)) : await readBytes(fd, lineStart, length)
        if (bytes === null) return // the file shrank under us: the next import sees it and starts again
        yield { offset: lineStart, end, bytes }
      } else {
        const spanning = lineStart < position ? await readBytes(fd, lineStart, length) : null
        if (lineStart < position && spanning === null) return
        let text = spanning ? spanning.toString('utf8') : buffer.toString('utf8', from, newline)
        if (text.endsWith('\r')) text = text.slice(0, -1)
        if (text.trim() !== '') yield { offset: lineStart, end, text }
      }
      lineStart = end
      from = newline + 1
    }
    position += bytesRead
  }
}

/** Bytes `position` to `position + length`, or null if the file ends before. */
async function readBytes(fd: number, position: number, length: number): Promise<Buffer | null> {
  const bytes = Buffer.allocUnsafe(length)
  let done = 0
  while (done < length) {
    const { bytesRead } = await readAsync(fd, bytes, done, length - done, position + done)
    if (bytesRead === 0) return null
    done += bytesRead
  }
  return bytes
}
