import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Runtime } from '../../runtime/runtime'
import { databaseOf } from '../../store/raw-database'
import { ParseThread } from '../parse-thread/parse-thread'
import { FIXTURES } from '../testing/claude-home'
import { rotateRollout } from '../testing/codex-rotation'
import { importTestbed } from '../testing/import-testbed'

const { tempDir, runtime } = importTestbed('retrace-codex-rotated-thread-')

// A real rollout (fixtures/codex/localpush, PROVENANCE.txt there), copied under other thread ids
// and rotated twice each as Codex's segment writer does it (testing/codex-rotation.ts).
const LONG = 'rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl'
const THREAD = '019c8a59-e9dd-71f0-9ae3-4079fe9726a9'
const real = readFileSync(join(FIXTURES, '..', 'fixtures/codex/localpush/sessions/2026/02/23', LONG), 'utf8')

function transcript(rt: Runtime): string[] {
  const rows = databaseOf(rt.store).prepare('SELECT s.source_session_id AS id, m.role, m.content, m.tool_input AS input FROM messages m JOIN sessions s ON s.id = m.session_id ORDER BY s.source_session_id, m.seq').all() as { id: string; role: string; content: string; input: string | null }[]
  return rows.map((m) => `${m.id} | ${m.role} ${m.content} ${m.input ?? ''}`)
}

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}

/** Five threads, each rotated twice, in one home; the same unrotated in the other. `extra`: lines added in the second segment. */
function homes(extra = ''): { rotatedHome: string; plainHome: string } {
  const rotatedHome = join(tempDir(), 'codex')
  const plainHome = join(tempDir(), 'codex')
  for (const n of [1, 2, 3, 4, 5]) {
    const thread = `${THREAD.slice(0, -1)}${n}`
    const lines = real.replaceAll(THREAD, thread).split(/(?<=\n)/)
    lines.splice(1200, 0, extra)
    const name = LONG.replace(THREAD, thread)
    const rollout = join(rotatedHome, 'sessions/2026/02/23', name)
    put(rollout, lines.slice(0, 900).join(''))
    rotateRollout(rotatedHome, rollout, `019c8b00-0000-7000-8000-00000000001${n}`)
    appendFileSync(rollout, lines.slice(900, 1900).join(''))
    rotateRollout(rotatedHome, rollout, `019c8b00-0000-7000-8000-00000000002${n}`)
    appendFileSync(rollout, lines.slice(1900).join(''))
    put(join(plainHome, 'sessions/2026/02/23', name), lines.join(''))
  }
  return { rotatedHome, plainHome }
}

describe('rotated Codex rollouts parsed on the import thread', () => {
  it('the thread reads the segments, then the rollouts: what the main thread reads', async () => {
    const { rotatedHome, plainHome } = homes()
    const started = ParseThread.counts.started
    const threaded = runtime({ codex: rotatedHome })
    await threaded.imports.importAll()
    expect(ParseThread.counts.started, 'a thread was started for the segments').toBeGreaterThan(started)
    const plain = runtime({ codex: plainHome })
    await plain.imports.importAll()
    expect(transcript(threaded).length).toBeGreaterThan(1000)
    expect(transcript(threaded)).toEqual(transcript(plain))
  }, 60_000)

  it('a thread that stops on a rotated rollout costs that rollout only: the others read as the main thread reads them', async () => {
    // A 3 MB tool output in the second segment: more than a thread with a heap of 8 MB can parse.
    const output = { timestamp: '2026-02-23T11:55:00.000Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_large', output: 'lib/src/main.rs\n'.repeat(200_000) } }
    const { rotatedHome, plainHome } = homes(`${JSON.stringify(output)}\n`)
    const stopped = ParseThread.counts.stopped
    const small = runtime({ codex: rotatedHome }, { env: { RETRACE_IMPORT_PARSE_HEAP_MB: '8' } })
    const report = await small.imports.importAll()
    expect(ParseThread.counts.stopped, 'the thread ran out of memory').toBeGreaterThan(stopped)
    const plain = runtime({ codex: plainHome })
    await plain.imports.importAll()
    const stoppedFiles = report.skipped.filter((s) => /parse thread stopped while reading/.test(s.reason))
    expect(stoppedFiles, 'the rollout the thread stopped on is said, once').toHaveLength(1)
    const thread = (lines: string[], id: string) => lines.filter((line) => line.startsWith(`${id} |`))
    const ids = [1, 2, 3, 4, 5].map((n) => `${THREAD.slice(0, -1)}${n}`)
    const whole = ids.filter((id) => JSON.stringify(thread(transcript(small), id)) === JSON.stringify(thread(transcript(plain), id)))
    expect(whole, 'every other rollout imports whole').toHaveLength(4)
    const cut = ids.find((id) => !whole.includes(id)) as string
    const kept = thread(transcript(small), cut)
    expect(kept, 'the stopped rollout keeps the lines read before its thread stopped').toEqual(thread(transcript(plain), cut).slice(0, kept.length))
  }, 60_000)
})
