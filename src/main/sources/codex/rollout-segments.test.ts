import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { zstdCompressSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { rotateRollout } from '../testing/codex-rotation'
import { isRotatedSegment, segmentsOf } from './rollout-segments'

// A real rollout (fixtures/codex/localpush, PROVENANCE.txt there), rotated as Codex's writer does.
const LONG = 'rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl'
const THREAD = '019c8a59-e9dd-71f0-9ae3-4079fe9726a9'
const real = readFileSync(join(FIXTURES, '..', 'fixtures/codex/localpush/sessions/2026/02/23', LONG), 'utf8')

let dirs: string[] = []
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  dirs = []
})

function rotated(): { home: string; rollout: string; segment: string } {
  const home = mkdtempSync(join(tmpdir(), 'retrace-segments-'))
  dirs.push(home)
  const rollout = join(home, 'sessions/2026/02/23', LONG)
  mkdirSync(dirname(rollout), { recursive: true })
  writeFileSync(rollout, real)
  return { home, rollout, segment: rotateRollout(home, rollout, '019c8b00-0000-7000-8000-000000000001') }
}

/** The rollout's reference line, changed. */
function withReference(rollout: string, change: (payload: Record<string, unknown>) => void): void {
  const [meta = '', reference = ''] = readFileSync(rollout, 'utf8').split('\n')
  const line = JSON.parse(reference) as { payload: Record<string, unknown> }
  change(line.payload)
  writeFileSync(rollout, `${meta}\n${JSON.stringify(line)}\n`)
}

describe('Codex rollout segments', () => {
  it('a rotated rollout continues its segment, past its two header lines', () => {
    const { rollout, segment } = rotated()
    const [meta = '', reference = ''] = readFileSync(rollout, 'utf8').split('\n')
    expect(segmentsOf(rollout)).toEqual({ pieces: [{ path: segment, from: 0 }], from: Buffer.byteLength(`${meta}\n${reference}\n`) })
    expect(readFileSync(segment, 'utf8')).toBe(real)
  })

  it('a segment compressed since is followed; a rollout that references none continues nothing', () => {
    const { rollout, segment } = rotated()
    writeFileSync(`${segment}.zst`, zstdCompressSync(readFileSync(segment)))
    rmSync(segment)
    expect(segmentsOf(rollout)?.pieces).toEqual([{ path: `${segment}.zst`, from: 0 }])
    expect(segmentsOf(`${segment}.zst`)).toBeUndefined()
  })

  it("a reference to another thread (a fork's history), to part of a segment, or to another segment id is not a segment", () => {
    const cases: ((payload: Record<string, unknown>) => void)[] = [
      (payload) => (payload.thread_id = '019c8a4c-ed82-79a1-aa28-7738fc5ab61a'),
      (payload) => (payload.nth_user_message = 2),
      (payload) => (payload.compacted_replacement_history_filter_texts = ['x']),
      (payload) => (payload.segment_id = '019c8b00-0000-7000-8000-000000000009')
    ]
    for (const change of cases) {
      const { rollout } = rotated()
      withReference(rollout, change)
      expect(segmentsOf(rollout)).toBeUndefined()
    }
    // A snapshot seal (usize::MAX, as serde writes it) takes the segment whole.
    const { rollout, segment } = rotated()
    writeFileSync(rollout, readFileSync(rollout, 'utf8').replace('"nth_user_message":null', '"nth_user_message":18446744073709551615'))
    expect(segmentsOf(rollout)?.pieces).toEqual([{ path: segment, from: 0 }])
  })

  it('a segment is known by where it is: two folders below its own thread id', () => {
    const { segment, rollout } = rotated()
    expect(isRotatedSegment(segment)).toBe(true)
    expect(isRotatedSegment(`${segment}.zst`)).toBe(true)
    expect(isRotatedSegment(rollout)).toBe(false)
    expect(isRotatedSegment(join('/h/archived_sessions', LONG))).toBe(false)
    expect(isRotatedSegment(join('/h/archived_sessions', THREAD, 'initial', LONG))).toBe(true)
  })
})
