import type { FileHandle } from 'node:fs/promises'

const CHUNK_BYTES = 1024 * 1024
/**
 * Claude Code `progress` lines have been seen at 70–95 MB each. Longer lines than this are
 * reported as skipped instead of being held in memory and parsed.
 */
export const MAX_LINE_BYTES = 128 * 1024 * 1024

/** A complete line: where it starts, where the next one starts, and its text (or its length, if too long). */
export type ReadLine = { offset: number; end: number; text: string } | { offset: number; end: number; tooLong: number }

/**
 * The complete lines of a file from byte `start`, each with the byte offset it starts at. A
 * last line without its newline is not returned: the agent may still be writing it, and the
 * next read starts there. Blank lines are passed over silently.
 */
export async function* readCompleteLines(handle: FileHandle, start: number): AsyncGenerator<ReadLine> {
  let position = start
  let lineStart = start
  let pending: Buffer[] = []
  let pendingBytes = 0
  let oversized = false
  const buffer = Buffer.alloc(CHUNK_BYTES)
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position)
    if (bytesRead === 0) return
    let from = 0
    for (;;) {
      const newline = buffer.indexOf(0x0a, from)
      if (newline === -1 || newline >= bytesRead) break
      const tail = buffer.subarray(from, newline)
      const end = position + newline + 1
      if (oversized) {
        yield { offset: lineStart, end, tooLong: pendingBytes + tail.length }
      } else {
        const line = pending.length ? Buffer.concat([...pending, tail]) : tail
        const text = line.toString('utf8').replace(/\r$/, '')
        if (text.trim() !== '') yield { offset: lineStart, end, text }
      }
      lineStart = end
      from = newline + 1
      pending = []
      pendingBytes = 0
      oversized = false
    }
    const rest = buffer.subarray(from, bytesRead)
    pendingBytes += rest.length
    if (pendingBytes > MAX_LINE_BYTES) {
      oversized = true
      pending = []
    } else if (!oversized) {
      pending.push(Buffer.from(rest))
    }
    position += bytesRead
  }
}
