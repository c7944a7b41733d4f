import { createHash } from 'node:crypto'
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { zstdCompressSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { Runtime } from '../../runtime/runtime'
import { databaseOf } from '../../store/raw-database'
import { FIXTURES } from '../testing/claude-home'
import { ROTATED_SEGMENTS_FOLDER, rotateRollout, startNextRolloutBeside } from '../testing/codex-rotation'
import { importTestbed } from '../testing/import-testbed'

const { tempDir, runtime } = importTestbed('retrace-codex-rotated-')

// A real rollout (fixtures/codex/localpush: Codex Desktop 0.104; PROVENANCE.txt there), rotated
// as Codex's segment writer does it (testing/codex-rotation.ts says how, from its source).
const DAY = 'fixtures/codex/localpush/sessions/2026/02/23'
const LONG = 'rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl' // 2722 lines
const THREAD = '019c8a59-e9dd-71f0-9ae3-4079fe9726a9'
const lines = readFileSync(join(FIXTURES, '..', DAY, LONG), 'utf8').split(/(?<=\n)/)
const part = (from: number, to?: number) => lines.slice(from, to).join('')
const SEGMENT_1 = '019c8b00-0000-7000-8000-000000000001'
const SEGMENT_2 = '019c8b00-0000-7000-8000-000000000002'

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}

const rolloutIn = (home: string) => join(home, 'sessions/2026/02/23', LONG)

function transcript(rt: Runtime): string[] {
  const rows = databaseOf(rt.store).prepare('SELECT s.source_session_id AS id, m.role, m.content, m.tool_input AS input FROM messages m JOIN sessions s ON s.id = m.session_id ORDER BY s.source_session_id, m.seq').all() as { id: string; role: string; content: string; input: string | null }[]
  return rows.map((m) => `${m.id} | ${m.role} ${m.content} ${m.input ?? ''}`)
}

function sessions(rt: Runtime): { id: number; uid: string; sourceId: string }[] {
  return databaseOf(rt.store).prepare('SELECT id, uid, source_session_id AS sourceId FROM sessions ORDER BY source_session_id').all() as { id: number; uid: string; sourceId: string }[]
}

/** Messages by the file they say they were read from. */
function messageSources(rt: Runtime, home: string): Record<string, number> {
  const rows = databaseOf(rt.store).prepare("SELECT json_extract(source_ref, '$.file') AS file, count(*) AS n FROM messages WHERE source_ref IS NOT NULL GROUP BY 1 ORDER BY 1").all() as { file: string; n: number }[]
  return Object.fromEntries(rows.map((row) => [relative(home, row.file), row.n]))
}

/** What imports read and did not import (kinds of lines), with no offsets. */
function unread(rt: Runtime): string[] {
  return databaseOf(rt.store).prepare('SELECT what FROM unread_records ORDER BY what').pluck().all() as string[]
}

function importedPaths(rt: Runtime, home: string): string[] {
  return (databaseOf(rt.store).prepare('SELECT path FROM import_files ORDER BY path').pluck().all() as string[]).map((path) => relative(home, path))
}

function hashes(root: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) found.set(join(entry.parentPath, entry.name), createHash('sha256').update(readFileSync(join(entry.parentPath, entry.name))).digest('hex'))
  }
  return found
}

/** The rollout imported whole, unrotated: what the rotated one must import, line for line. */
async function unrotated(): Promise<{ transcript: string[]; skipped: number }> {
  const home = join(tempDir(), 'codex')
  put(rolloutIn(home), part(0))
  const rt = runtime({ codex: home })
  const report = await rt.imports.importAll()
  return { transcript: transcript(rt), skipped: report.skipped.length }
}

describe('Codex rollouts rotated into segments (docs/formats.md §2.2)', () => {
  it('rotated after an import: the same session goes on, each line imported once, the rest read from the segment', async () => {
    const home = join(tempDir(), 'codex')
    const rollout = rolloutIn(home)
    put(rollout, part(0, 1500))
    const rt = runtime({ codex: home })
    await rt.imports.importAll()
    const [session] = sessions(rt)
    const first = transcript(rt)

    // Codex writes on (lines Retrace has not read yet), rotates, and writes in the new segment.
    appendFileSync(rollout, part(1500, 1800))
    const segment = rotateRollout(home, rollout, SEGMENT_1)
    appendFileSync(rollout, part(1800))
    const before = hashes(home)
    const report = await rt.imports.importAll()

    expect(report.skipped.filter((s) => s.reason.includes('rollout_reference'))).toEqual([])
    expect(unread(rt)).not.toContain('line type "rollout_reference"')
    expect(sessions(rt)).toEqual([session])
    const whole = await unrotated()
    expect(transcript(rt).slice(0, first.length)).toEqual(first)
    expect(transcript(rt)).toEqual(whole.transcript)
    expect(importedPaths(rt, home)).toEqual([`sessions/2026/02/23/${LONG}`])
    // The messages read before the rotation name the segment that holds them now.
    const sources = messageSources(rt, home)
    expect(Object.keys(sources)).toEqual([relative(home, segment), `sessions/2026/02/23/${LONG}`])
    expect(sources[relative(home, segment)]).toBeGreaterThan(first.length)
    expect(hashes(home)).toEqual(before)
    expect(await rt.imports.importAll()).toMatchObject({ files: 0, messages: 0 })
  })

  it('rotated twice before Retrace saw it: one session, every segment in order, none listed alone', async () => {
    const home = join(tempDir(), 'codex')
    const rollout = rolloutIn(home)
    put(rollout, part(0, 1000))
    const initial = rotateRollout(home, rollout, SEGMENT_1) // a rollout from before segment ids: "initial"
    appendFileSync(rollout, part(1000, 2000))
    const second = rotateRollout(home, rollout, SEGMENT_2)
    appendFileSync(rollout, part(2000))
    expect(relative(home, initial)).toBe(`${ROTATED_SEGMENTS_FOLDER}/${THREAD}/initial/${LONG}`)
    expect(relative(home, second)).toBe(`${ROTATED_SEGMENTS_FOLDER}/${THREAD}/${SEGMENT_1}/${LONG}`)
    const before = hashes(home)

    const rt = runtime({ codex: home })
    const report = await rt.imports.importAll()
    const whole = await unrotated()
    expect(report.skipped.length).toBe(whole.skipped)
    expect(sessions(rt).map((s) => s.sourceId)).toEqual([THREAD])
    expect(transcript(rt)).toEqual(whole.transcript)
    expect(Object.keys(messageSources(rt, home))).toEqual([relative(home, second), relative(home, initial), `sessions/2026/02/23/${LONG}`])
    expect(hashes(home)).toEqual(before)
    expect(await rt.imports.importAll()).toMatchObject({ files: 0, messages: 0 })
  })

  it("an earlier writer's rotation (a new rollout beside the old one, naming it): the import goes on in the new one", async () => {
    const home = join(tempDir(), 'codex')
    const rollout = rolloutIn(home)
    put(rollout, part(0, 1500))
    const rt = runtime({ codex: home })
    await rt.imports.importAll()
    const [session] = sessions(rt)
    appendFileSync(rollout, part(1500, 1800))
    const next = startNextRolloutBeside(rollout, `rollout-2026-02-23T14-00-00-${THREAD}.jsonl`, SEGMENT_1)
    appendFileSync(next, part(1800))
    const before = hashes(home)
    await rt.imports.importAll()
    expect(sessions(rt)).toEqual([session])
    expect(transcript(rt)).toEqual((await unrotated()).transcript)
    expect(importedPaths(rt, home)).toEqual([relative(home, next)])
    expect(hashes(home)).toEqual(before)
    expect(await rt.imports.importAll()).toMatchObject({ files: 0, messages: 0 })
  })

  it('a segment kept in archived_sessions/<thread>/<segment>/ (as older writers did) is not a session of its own', async () => {
    const home = join(tempDir(), 'codex')
    const rollout = rolloutIn(home)
    put(rollout, part(0, 1000))
    const segment = rotateRollout(home, rollout, SEGMENT_1)
    appendFileSync(rollout, part(1000))
    // The same copy where Codex's resolver also looks for one.
    put(join(home, 'archived_sessions', THREAD, 'initial', LONG), readFileSync(segment, 'utf8'))
    const rt = runtime({ codex: home })
    await rt.imports.importAll()
    expect(sessions(rt).map((s) => s.sourceId)).toEqual([THREAD])
    expect(transcript(rt)).toEqual((await unrotated()).transcript)
  })

  it('rotated, then compressed while idle, before the next import: the import goes on through the segment', async () => {
    const home = join(tempDir(), 'codex')
    const rollout = rolloutIn(home)
    put(rollout, part(0, 1500))
    const rt = runtime({ codex: home })
    await rt.imports.importAll()
    const [session] = sessions(rt)
    rotateRollout(home, rollout, SEGMENT_1)
    appendFileSync(rollout, part(1500))
    writeFileSync(`${rollout}.zst`, zstdCompressSync(readFileSync(rollout)))
    rmSync(rollout)
    await rt.imports.importAll()
    expect(sessions(rt)).toEqual([session])
    expect(transcript(rt)).toEqual((await unrotated()).transcript)
    expect(importedPaths(rt, home)).toEqual([`sessions/2026/02/23/${LONG}.zst`])
  })

  it('a segment that cannot be found: the rollout is read whole, its reference reported as not read', async () => {
    const home = join(tempDir(), 'codex')
    const rollout = rolloutIn(home)
    put(rollout, part(0, 1000))
    const segment = rotateRollout(home, rollout, SEGMENT_1)
    appendFileSync(rollout, part(1000))
    rmSync(segment)
    const rt = runtime({ codex: home })
    await rt.imports.importAll()
    expect(sessions(rt).map((s) => s.sourceId)).toEqual([THREAD])
    expect(transcript(rt).length).toBeGreaterThan(0)
    expect(transcript(rt)).toEqual((await unrotated()).transcript.slice(-transcript(rt).length))
    expect(unread(rt)).toContain('line type "rollout_reference"')
  })
})
