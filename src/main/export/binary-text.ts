/**
 * The bytes of a file that is not UTF-8 (the JSON export carries it as base64) as a string the
 * secret scan reads, and the way back. Keys and tokens are ASCII: in such a file they sit there
 * byte for byte, next to a NUL or a stray Latin-1 byte, and no UTF-8 decoder hands them over
 * intact. Latin-1 turns each byte into one character and back exactly, so a finding's offsets
 * are byte offsets, and a redaction that keeps lengths gives back a file of the same size with
 * every other byte where it was.
 *
 * A file that starts with a UTF-16 byte-order mark (what Windows editors save as "Unicode")
 * holds its ASCII as two bytes a character, so it is read as UTF-16 instead: one character per
 * two bytes, an odd last byte kept as it is.
 */
export interface BinaryText {
  text: string
  /** The bytes of `text`, a same-length edit of the text above, encoded the way it was read. */
  toBytes: (text: string) => Buffer
}

export function binaryText(bytes: Buffer): BinaryText {
  const bom = bytes.length >= 2 ? bytes.readUInt16BE(0) : 0
  if (bom === 0xfffe || bom === 0xfeff) return utf16Text(bytes, bom === 0xfeff)
  return { text: bytes.toString('latin1'), toBytes: (text) => Buffer.from(text, 'latin1') }
}

function utf16Text(bytes: Buffer, bigEndian: boolean): BinaryText {
  const even = bytes.length - (bytes.length % 2)
  const units = Buffer.from(bytes.subarray(0, even))
  if (bigEndian) units.swap16()
  const tail = bytes.subarray(even)
  return {
    text: units.toString('utf16le'),
    toBytes: (text) => {
      const encoded = Buffer.from(text, 'utf16le')
      if (bigEndian) encoded.swap16()
      return Buffer.concat([encoded, tail])
    }
  }
}
