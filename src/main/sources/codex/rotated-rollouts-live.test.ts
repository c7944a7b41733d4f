import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Runtime } from '../../runtime/runtime'
import { databaseOf } from '../../store/raw-database'
import { FIXTURES } from '../testing/claude-home'
import { rotateRollout } from '../testing/codex-rotation'
import { contractCaller, importTestbed } from '../testing/import-testbed'

const { tempDir, runtime } = importTestbed('retrace-codex-rotated-live-')

// A real rollout (fixtures/codex/localpush, PROVENANCE.txt there), rotated as Codex's segment
// writer does it (testing/codex-rotation.ts), while Retrace follows it live.
const DAY = 'fixtures/codex/localpush/sessions/2026/02/23'
const LONG = 'rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl'

function transcript(rt: Runtime): string[] {
  const rows = databaseOf(rt.store).prepare('SELECT m.role, m.content, m.tool_input AS input FROM messages m ORDER BY m.session_id, m.seq').all() as { role: string; content: string; input: string | null }[]
  return rows.map((m) => `${m.role} ${m.content} ${m.input ?? ''}`)
}

const sessions = (rt: Runtime) => databaseOf(rt.store).prepare('SELECT id, uid FROM sessions ORDER BY id').all()

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}

describe('a Codex rollout rotated while Retrace follows it live', () => {
  it('between two discoveries: the session goes on with the new lines, nothing dropped or read twice', async () => {
    const workspace = tempDir()
    const home = join(tempDir(), 'codex')
    const rollout = join(home, 'sessions/2026/02/23', LONG)
    // The rollout recorded in this workspace (its own cwd, redacted in the fixture, swapped).
    const lines = readFileSync(join(FIXTURES, '..', DAY, LONG), 'utf8').replaceAll('/redacted/path/59b923df4d', workspace).split(/(?<=\n)/)
    put(rollout, lines.slice(0, 1500).join(''))
    const live = runtime({ codex: home }, { followImports: true })
    const call = contractCaller(live)
    await call('workspaces.open', { path: workspace })
    await until(() => transcript(live).length > 0)
    await new Promise((resolve) => setTimeout(resolve, 500))
    const first = transcript(live)
    const before = sessions(live)

    // Discovery looks again every 2 s; the file is polled every 400 ms: the replaced file is
    // first imported with what discovery said of it before the rotation.
    appendFileSync(rollout, lines.slice(1500, 1800).join(''))
    rotateRollout(home, rollout, '019c8b00-0000-7000-8000-000000000001')
    appendFileSync(rollout, lines.slice(1800).join(''))
    await until(() => transcript(live).length > first.length)
    await new Promise((resolve) => setTimeout(resolve, 3000))

    const whole = join(tempDir(), 'codex')
    put(join(whole, 'sessions/2026/02/23', LONG), lines.join(''))
    const clean = runtime({ codex: whole })
    await clean.imports.importAll()
    expect(sessions(live)).toEqual(before)
    expect(transcript(live)).toEqual(transcript(clean))
  }, 30_000)
})

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now()
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
