import { describe, expect, it } from 'vitest'
import { binaryText } from './binary-text'

describe('binaryText', () => {
  it('reads any bytes one character a byte, and gives the same bytes back', () => {
    const bytes = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7) % 256))
    const view = binaryText(bytes)
    expect(view.text).toHaveLength(bytes.length)
    expect(view.toBytes(view.text).equals(bytes)).toBe(true)
  })

  it('finds ASCII at its byte offset next to NULs and bytes that are not UTF-8', () => {
    const bytes = Buffer.concat([Buffer.from([0x00, 0xc3, 0xff]), Buffer.from('token=abc'), Buffer.from([0xe9, 0x00])])
    expect(binaryText(bytes).text.indexOf('token=abc')).toBe(3)
  })

  it.each([
    ['little-endian', Buffer.from([0xff, 0xfe]), (text: string) => Buffer.from(text, 'utf16le')],
    ['big-endian', Buffer.from([0xfe, 0xff]), (text: string) => Buffer.from(text, 'utf16le').swap16()]
  ])('reads UTF-16 (%s, with its byte-order mark) as text, an odd last byte kept', (_order, bom, encode) => {
    const bytes = Buffer.concat([bom, encode('key = abc123\r\n'), Buffer.from([0x41])])
    const view = binaryText(bytes)
    expect(view.text).toBe('\ufeffkey = abc123\r\n')
    const edited = view.toBytes(view.text.replace('abc123', '******'))
    expect(edited).toHaveLength(bytes.length)
    expect(edited.equals(Buffer.concat([bom, encode('key = ******\r\n'), Buffer.from([0x41])]))).toBe(true)
  })
})
