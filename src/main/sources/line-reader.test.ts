import { closeSync, openSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LARGE_LINE_BYTES, MAX_LINE_BYTES, readCompleteLines, type ReadLine } from './line-reader'
import { importTestbed } from './testing/import-testbed'

const { tempDir } = importTestbed('retrace-line-reader-')

async function readAll(content: Buffer | string, start = 0): Promise<ReadLine[]> {
  const path = join(tempDir(), 'history.jsonl')
  writeFileSync(path, content)
  const fd = openSync(path, 'r')
  try {
    const lines: ReadLine[] = []
    for await (const line of readCompleteLines(fd, start)) lines.push(line)
    return lines
  } finally {
    closeSync(fd)
  }
}

describe('reading the complete lines of a history file', () => {
  it('returns each line with its byte offsets, long lines across chunks and characters cut by a chunk boundary included', async () => {
    // Multi-byte characters (2, 3 and 4 bytes) repeated so that chunk boundaries fall inside them.
    // Lines of LARGE_LINE_BYTES or more come as their bytes, for the caller to weigh before decoding.
    const long = `{"text":"${'é日😀'.repeat(330_000)}"}`
    const spanning = `{"text":"${'é日😀'.repeat(25_000)}"}` // 225 kB, across the chunk boundary at 3 MB
    const lines = ['{"a":1}', long, spanning, '{"b":"CRLF"}\r', '   ', '', `{"c":"${'x'.repeat(3 * 1024 * 1024)}"}`, '{"partial":']
    const content = lines.join('\n')
    // A large line's bytes, decoded here to compare (a Buffer of megabytes compares slowly).
    const read = (await readAll(content)).map((line) => ('bytes' in line ? { ...line, bytes: line.bytes.toString('utf8') } : line))
    const offsetOf = (index: number) => Buffer.byteLength(lines.slice(0, index).map((line) => `${line}\n`).join(''))
    expect(read).toEqual([
      { offset: 0, end: offsetOf(1), text: '{"a":1}' },
      { offset: offsetOf(1), end: offsetOf(2), bytes: long },
      { offset: offsetOf(2), end: offsetOf(3), text: spanning },
      { offset: offsetOf(3), end: offsetOf(4), text: '{"b":"CRLF"}' },
      { offset: offsetOf(6), end: offsetOf(7), bytes: lines[6] }
    ]) // blank lines passed over, the last line (no newline yet) left for the next read
    expect(Buffer.byteLength(long)).toBeGreaterThan(LARGE_LINE_BYTES)
    expect(offsetOf(2)).toBeLessThan(3 * 1024 * 1024)
    expect(offsetOf(3)).toBeGreaterThan(3 * 1024 * 1024)
    expect((await readAll(content, offsetOf(3))).map((line) => ('bytes' in line ? { ...line, bytes: line.bytes.toString('utf8') } : line))).toEqual(read.slice(3))
  })

  it('reports a line longer than the limit by its length, without reading it, and goes on after it', async () => {
    const tooLong = Buffer.alloc(MAX_LINE_BYTES + 1, 'x')
    const read = await readAll(Buffer.concat([Buffer.from('{"a":1}\n'), tooLong, Buffer.from('\n{"b":2}\n')]))
    expect(read).toEqual([
      { offset: 0, end: 8, text: '{"a":1}' },
      { offset: 8, end: 8 + tooLong.length + 1, tooLong: tooLong.length },
      { offset: 8 + tooLong.length + 1, end: 8 + tooLong.length + 9, text: '{"b":2}' }
    ])
  })
})
