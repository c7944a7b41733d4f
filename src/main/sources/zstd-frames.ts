import { closeSync, fstatSync, openSync, readSync } from 'node:fs'

const FRAME_MAGIC = 0xfd2fb528
/** Skippable frames (0x184D2A50–0x184D2A5F): metadata any decoder passes over. */
const SKIPPABLE_MAGIC = 0x184d2a50

/**
 * Why a zstd file is not whole, or null when it is: its frames and their blocks, walked by their
 * headers (RFC 8878 §3.1), fill the file exactly. Node's zstd decoder ends quietly at the end of
 * a file cut short (a copy that did not finish) and gives what it could decode, which would be
 * read as a shorter history: this says so instead. Reads headers only (a few bytes per 128 KB block).
 */
export function zstdIncompleteness(path: string): string | null {
  const fd = openSync(path, 'r')
  try {
    const size = fstatSync(fd).size
    const at = (position: number, bytes: number): Buffer | null => {
      if (position + bytes > size) return null
      const buffer = Buffer.alloc(bytes)
      return readSync(fd, buffer, 0, bytes, position) === bytes ? buffer : null
    }
    let position = 0
    if (size === 0) return 'the file is empty'
    while (position < size) {
      const magic = at(position, 4)?.readUInt32LE(0)
      if (magic === undefined) return `cut short in a frame's magic number at byte ${position}`
      if ((magic & 0xfffffff0) === SKIPPABLE_MAGIC) {
        const length = at(position + 4, 4)?.readUInt32LE(0)
        if (length === undefined || position + 8 + length > size) return `cut short in a skippable frame at byte ${position}`
        position += 8 + length
        continue
      }
      if (magic !== FRAME_MAGIC) return `no zstd frame at byte ${position}`
      const descriptor = at(position + 4, 1)?.readUInt8(0)
      if (descriptor === undefined) return `cut short in a frame header at byte ${position}`
      const singleSegment = (descriptor & 0x20) !== 0
      const contentSizeBytes = [singleSegment ? 1 : 0, 2, 4, 8][descriptor >> 6] ?? 0
      const dictionaryBytes = [0, 1, 2, 4][descriptor & 0x03] ?? 0
      const checksumBytes = (descriptor & 0x04) !== 0 ? 4 : 0
      position += 5 + (singleSegment ? 0 : 1) + dictionaryBytes + contentSizeBytes
      for (let last = false; !last; ) {
        const header = at(position, 3)
        if (!header) return `cut short in a block header at byte ${position}`
        const value = header.readUIntLE(0, 3)
        last = (value & 1) === 1
        const type = (value >> 1) & 3
        if (type === 3) return `a reserved block type at byte ${position}`
        position += 3 + (type === 1 ? 1 : value >> 3) // an RLE block holds one byte
        if (position > size) return `cut short in a block ending at byte ${position}`
      }
      position += checksumBytes
      if (position > size) return `cut short in a frame's checksum at byte ${position}`
    }
    return null
  } finally {
    closeSync(fd)
  }
}
