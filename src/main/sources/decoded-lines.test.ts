import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { zstdCompressSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { isCompressed } from './compressed-files'
import { parseFileChunks, type ParsedChunk } from './parse-thread/parse-chunks'
import { adaptersFor } from './registry'
import { FIXTURES } from './testing/claude-home'
import { zstdIncompleteness } from './zstd-frames'

// A real rollout (fixtures/codex/localpush, PROVENANCE.txt there): 2722 lines, 1 MB.
const ROLLOUT = join(FIXTURES, 'codex/localpush/sessions/2026/02/23/rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl')

let dir = ''
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function files(bytes: Buffer): { plain: string; compressed: string } {
  dir = mkdtempSync(join(tmpdir(), 'retrace-decoded-'))
  const plain = join(dir, 'rollout-x.jsonl')
  writeFileSync(plain, bytes)
  writeFileSync(`${plain}.zst`, zstdCompressSync(bytes))
  return { plain, compressed: `${plain}.zst` }
}

async function chunksOf(path: string, start: number, parserState: unknown = null): Promise<Omit<ParsedChunk, 'stat'>[]> {
  const parser = (_source: string, state: unknown) => {
    const [adapter] = adaptersFor('codex')
    if (!adapter || adapter.kind === 'snapshot') throw new Error('no codex parser')
    return adapter.createParser(state)
  }
  const chunks: Omit<ParsedChunk, 'stat'>[] = []
  for await (const { stat, ...chunk } of parseFileChunks({ source: 'codex', path, start, parserState }, parser, Infinity)) {
    expect(stat.size).toBeGreaterThan(0)
    chunks.push(chunk)
  }
  return chunks
}

describe('a compressed file read as its decoded bytes', () => {
  it('gives the chunks the plain file gives: same records, offsets, head and tail hashes, from the start or an offset', async () => {
    const bytes = readFileSync(ROLLOUT)
    const { plain, compressed } = files(bytes)
    expect(isCompressed(compressed)).toBe(true)
    const fromPlain = await chunksOf(plain, 0)
    expect(fromPlain.length).toBeGreaterThan(4)
    expect(await chunksOf(compressed, 0)).toEqual(fromPlain)
    // From where the third chunk starts, with the parser's state there (what an import resumes from).
    const third = fromPlain[2]
    const second = fromPlain[1]
    expect(third && second).toBeTruthy()
    const resumed = await chunksOf(plain, third?.start ?? 0, JSON.parse(second?.parserStateJson ?? 'null'))
    expect(resumed[0]?.tail).toBe(fromPlain[2]?.tail)
    expect(await chunksOf(compressed, third?.start ?? 0, JSON.parse(second?.parserStateJson ?? 'null'))).toEqual(resumed)
  })

  it('ends with the unfinished last line counted, blank lines passed over, like a plain file', async () => {
    const lines = readFileSync(ROLLOUT, 'utf8').split('\n').slice(0, 30)
    const bytes = Buffer.from(`${lines.slice(0, 10).join('\n')}\n\n\r\n${lines.slice(10, 20).join('\n')}\n\n${lines[20]?.slice(0, 50)}`)
    const { plain, compressed } = files(bytes)
    const fromPlain = await chunksOf(plain, 0)
    expect(fromPlain.at(-1)?.unfinished).toBe(51) // the blank line before it too
    const fromCompressed = await chunksOf(compressed, 0)
    // Read to its end: a compressed file is never written on, so its unfinished line is final.
    const withoutComplete = (chunks: Omit<ParsedChunk, 'stat'>[]) => chunks.map((chunk) => ({ ...chunk, complete: undefined }))
    expect(withoutComplete(fromCompressed)).toEqual(withoutComplete(fromPlain))
    expect(fromPlain.at(-1)?.complete).toBe(false)
    expect(fromCompressed.at(-1)?.complete).toBe(true)
  })
})

describe('a zstd file cut short', () => {
  it('is told from a whole one by its frames, wherever it was cut', () => {
    const whole = zstdCompressSync(readFileSync(ROLLOUT))
    const { compressed } = files(Buffer.alloc(0))
    writeFileSync(compressed, whole)
    expect(zstdIncompleteness(compressed)).toBeNull()
    // Two frames, and a skippable frame between them, are whole too (zstd may write several).
    writeFileSync(compressed, Buffer.concat([whole, Buffer.from([0x50, 0x2a, 0x4d, 0x18, 2, 0, 0, 0, 7, 7]), whole]))
    expect(zstdIncompleteness(compressed)).toBeNull()
    for (const length of [0, 3, 5, 9, 1000, Math.floor(whole.length / 2), whole.length - 1]) {
      writeFileSync(compressed, whole.subarray(0, length))
      expect(zstdIncompleteness(compressed), `cut at ${length}`).toMatch(/cut short|empty/)
    }
    writeFileSync(compressed, Buffer.from('{"not":"zstd"}\n'))
    expect(zstdIncompleteness(compressed)).toMatch(/no zstd frame/)
  })
})
