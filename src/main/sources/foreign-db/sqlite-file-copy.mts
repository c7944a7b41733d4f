/**
 * Copying an agent's SQLite database for the reader (foreign-db-reader.mts) when it must be
 * copied (a running agent's `-wal` is replayed into a copy, never beside the agent's file): only
 * the bytes SQLite reads, and holes left holes. A file's size says little: a `checkpoints.sqlite`
 * grown to 3 GB of holes holds 1.6 MB, and a plain copy would write 3 GB of zeros to read them.
 *
 * A leaf of node builtins and erasable TypeScript, loaded as it is by the reader's process.
 */
import { closeSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs'

const CHUNK_BYTES = 1024 * 1024
const ZEROS = Buffer.alloc(CHUNK_BYTES)
const HEADER = Buffer.from('SQLite format 3\0', 'latin1')

/**
 * How many bytes of the database file SQLite reads: its header's page count times its page size
 * when the header says so validly (its "version-valid-for" equals its change counter, as every
 * SQLite since 3.7.0 writes it), else the whole file. Never more than the file holds.
 */
export function databaseBytes(head: Buffer, fileSize: number): number {
  if (head.length < 100 || !head.subarray(0, 16).equals(HEADER)) return fileSize
  const rawPageSize = head.readUInt16BE(16)
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize
  const pages = head.readUInt32BE(28)
  const valid = pages > 0 && head.readUInt32BE(24) === head.readUInt32BE(92)
  if (!valid || pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return fileSize
  return Math.min(fileSize, pages * pageSize)
}

/**
 * Copy the first `bytes` of `from` (all of it when undefined) to `to`, a new file: chunks of
 * zeros are not written, so the copy of a sparse file is sparse too. Returns the bytes copied.
 */
export function copySparse(from: string, to: string, bytes?: number): number {
  const source = openSync(from, 'r')
  try {
    const length = Math.min(bytes ?? Number.MAX_SAFE_INTEGER, fstatSync(source).size)
    const target = openSync(to, 'wx', 0o600)
    try {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
      let at = 0
      while (at < length) {
        const read = readSync(source, chunk, 0, Math.min(CHUNK_BYTES, length - at), at)
        if (read === 0) break
        const piece = chunk.subarray(0, read)
        if (!piece.equals(ZEROS.subarray(0, read))) writeSync(target, piece, 0, read, at)
        at += read
      }
      // The holes at the end: the file gets its length without a byte written there.
      ftruncateSync(target, at)
      return at
    } finally {
      closeSync(target)
    }
  } finally {
    closeSync(source)
  }
}

/** The first 100 bytes of the file (SQLite's header), fewer if it is shorter. */
export function readHeader(path: string): Buffer {
  const fd = openSync(path, 'r')
  try {
    const head = Buffer.alloc(100)
    return head.subarray(0, readSync(fd, head, 0, 100, 0))
  } finally {
    closeSync(fd)
  }
}
