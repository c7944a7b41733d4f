import { createHash } from 'node:crypto'
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { zstdCompressSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { Runtime } from '../../runtime/runtime'
import { databaseOf } from '../../store/raw-database'
import { FIXTURES } from '../testing/claude-home'
import { ParseThread } from '../parse-thread/parse-thread'
import { contractCaller, importTestbed } from '../testing/import-testbed'
import { SPOTTER_CWD, writeSpotterCopies } from '../testing/session-copies'

const { tempDir, runtime } = importTestbed('retrace-codex-zst-')

// Real rollouts (fixtures/codex/localpush: Codex Desktop 0.104; PROVENANCE.txt there).
const DAY = 'fixtures/codex/localpush/sessions/2026/02/23'
const LONG = 'rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl' // 2722 lines, 1 MB: several chunks
const SHORT = 'rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl'
const real = (name: string): Buffer => readFileSync(join(FIXTURES, '..', DAY, name))

/** Where Codex keeps a rollout of that day, and where it archives one. */
const dated = (home: string, name: string) => join(home, 'sessions/2026/02/23', name)
const archived = (home: string, name: string) => join(home, 'archived_sessions', name)

function put(path: string, bytes: Buffer): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, bytes)
}

/** Compressed whole, as Codex's worker does (one zstd frame, level 3). */
const zst = (bytes: Buffer): Buffer => zstdCompressSync(bytes)

function transcript(rt: Runtime): string[] {
  const rows = databaseOf(rt.store)
    .prepare('SELECT s.source_session_id AS id, s.title, m.role, m.content, m.tool_input AS input, m.input_tokens AS tokens FROM messages m JOIN sessions s ON s.id = m.session_id ORDER BY s.source_session_id, m.seq')
    .all() as { id: string; title: string; role: string; content: string; input: string | null; tokens: number | null }[]
  return rows.map((m) => `${m.id} ${m.title} | ${m.role} ${m.content} ${m.input ?? ''} ${m.tokens ?? ''}`)
}

function sessions(rt: Runtime): { id: number; uid: string; sourceId: string }[] {
  return databaseOf(rt.store).prepare('SELECT id, uid, source_session_id AS sourceId FROM sessions ORDER BY source_session_id').all() as { id: number; uid: string; sourceId: string }[]
}

/** The files messages say they were read from (they follow the file when it moves). */
function messageSources(rt: Runtime, home: string): string[] {
  return (databaseOf(rt.store).prepare("SELECT DISTINCT json_extract(source_ref, '$.file') FROM messages WHERE source_ref IS NOT NULL ORDER BY 1").pluck().all() as string[]).map((path) => relative(home, path))
}

function importedPaths(rt: Runtime, home: string): string[] {
  return (databaseOf(rt.store).prepare('SELECT path FROM import_files ORDER BY path').pluck().all() as string[]).map((path) => relative(home, path))
}

/** Every file under the folder and its sha256: an import only reads them. */
function hashes(root: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) found.set(join(entry.parentPath, entry.name), createHash('sha256').update(readFileSync(join(entry.parentPath, entry.name))).digest('hex'))
  }
  return found
}

/** The same rollouts imported from plain files where Codex first writes them. */
async function plainImport(...names: string[]): Promise<Runtime> {
  return (await plainImportReport(...names)).rt
}

async function plainImportReport(...names: string[]): Promise<{ rt: Runtime; skipped: string[] }> {
  const home = join(tempDir(), 'codex')
  for (const name of names) put(dated(home, name), real(name))
  const rt = runtime({ codex: home })
  return { rt, skipped: skippedLines(await rt.imports.importAll()) }
}

/**
 * What an import reported as not imported, by rollout, decoded offset and reason (the real
 * rollouts have apply_patch calls Retrace does not read: the same ones, at the same offsets).
 */
function skippedLines(report: { skipped: { file: string; offset: number; reason: string }[] }): string[] {
  return report.skipped.map((s) => `${contentKey(s.file)} ${s.offset} ${s.reason}`).sort()
}

const contentKey = (path: string) => path.slice(path.lastIndexOf('/') + 1).replace(/\.zst$/, '')

describe('Codex rollouts compressed by Codex (.jsonl.zst) or archived (archived_sessions/)', () => {
  it('a compressed rollout is the same session with the same messages as the plain one', async () => {
    const home = join(tempDir(), 'codex')
    put(dated(home, `${LONG}.zst`), zst(real(LONG)))
    put(dated(home, `${SHORT}.zst`), zst(real(SHORT)))
    const before = hashes(home)
    const rt = runtime({ codex: home })
    const report = await rt.imports.importAll()
    expect(skippedLines(report)).toEqual((await plainImportReport(LONG, SHORT)).skipped)
    expect(sessions(rt).map((s) => s.sourceId)).toEqual(['019c8a59-e9dd-71f0-9ae3-4079fe9726a9', '019c8bfe-ec25-79e0-97d7-bda6a9c575ff'])
    expect(transcript(rt).length).toBeGreaterThan(100)
    expect(transcript(rt)).toEqual(transcript(await plainImport(LONG, SHORT)))
    expect(hashes(home)).toEqual(before)
    // Unchanged since: the next import reads nothing (a compressed file is not decoded again).
    expect(await rt.imports.importAll()).toMatchObject({ files: 0, messages: 0, skipped: [] })
  })


  it('an archived rollout, plain or compressed, is found in archived_sessions/', async () => {
    const home = join(tempDir(), 'codex')
    put(archived(home, LONG), real(LONG))
    put(archived(home, `${SHORT}.zst`), zst(real(SHORT)))
    const before = hashes(home)
    const rt = runtime({ codex: home })
    expect(skippedLines(await rt.imports.importAll())).toEqual((await plainImportReport(LONG, SHORT)).skipped)
    expect(transcript(rt)).toEqual(transcript(await plainImport(LONG, SHORT)))
    expect(importedPaths(rt, home)).toEqual([`archived_sessions/${LONG}`, `archived_sessions/${SHORT}.zst`])
    expect(hashes(home)).toEqual(before)
  })

  it('a rollout compressed, archived, then decompressed and written on is one session, each line imported once', async () => {
    const home = join(tempDir(), 'codex')
    const lines = real(LONG).toString('utf8').split(/(?<=\n)/)
    const firstPart = Buffer.from(lines.slice(0, 1500).join(''))
    put(dated(home, LONG), firstPart)
    const rt = runtime({ codex: home })
    await rt.imports.importAll()
    const [session] = sessions(rt)
    const first = transcript(rt)

    // Idle for a week: Codex writes the .zst beside it, then deletes the plain file.
    put(dated(home, `${LONG}.zst`), zst(firstPart))
    rmSync(dated(home, LONG))
    expect(await rt.imports.importAll()).toMatchObject({ messages: 0, skipped: [] })
    expect(sessions(rt)).toEqual([session])
    expect(transcript(rt)).toEqual(first)
    expect(importedPaths(rt, home)).toEqual([`sessions/2026/02/23/${LONG}.zst`])

    // `codex archive`: moved, compressed as it is.
    mkdirSync(join(home, 'archived_sessions'))
    copyFileSync(dated(home, `${LONG}.zst`), archived(home, `${LONG}.zst`))
    rmSync(dated(home, `${LONG}.zst`))
    expect(await rt.imports.importAll()).toMatchObject({ messages: 0, skipped: [] })
    expect(importedPaths(rt, home)).toEqual([`archived_sessions/${LONG}.zst`])
    expect(messageSources(rt, home)).toEqual([`archived_sessions/${LONG}.zst`])
    expect(transcript(rt)).toEqual(first)
    // Nothing left to do: neither decoded nor read again.
    expect(await rt.imports.importAll()).toMatchObject({ files: 0, messages: 0 })

    // Resumed: Codex decompresses it beside itself and appends the rest of the session.
    put(archived(home, LONG), real(LONG))
    rmSync(archived(home, `${LONG}.zst`))
    const resumed = await rt.imports.importAll()
    expect(resumed.messages).toBeGreaterThan(0)
    // The lines after the first part only: what they report, nothing before.
    expect(resumed.skipped.every((s) => s.offset >= firstPart.length)).toBe(true)
    expect(sessions(rt)).toEqual([session])
    expect(importedPaths(rt, home)).toEqual([`archived_sessions/${LONG}`])
    expect(messageSources(rt, home)).toEqual([`archived_sessions/${LONG}`])
    expect(transcript(rt)).toEqual(transcript(await plainImport(LONG)))
  })

  it('both forms at once (mid-way, or left over), in both places: one session, read from the plain file', async () => {
    const home = join(tempDir(), 'codex')
    put(dated(home, LONG), real(LONG))
    put(dated(home, `${LONG}.zst`), zst(real(LONG)))
    put(archived(home, `${LONG}.zst`), zst(real(LONG)))
    put(archived(home, SHORT), real(SHORT))
    put(archived(home, `${SHORT}.zst`), zst(real(SHORT)))
    const rt = runtime({ codex: home })
    expect(skippedLines(await rt.imports.importAll())).toEqual((await plainImportReport(LONG, SHORT)).skipped)
    expect(importedPaths(rt, home)).toEqual([`archived_sessions/${SHORT}`, `sessions/2026/02/23/${LONG}`])
    expect(transcript(rt)).toEqual(transcript(await plainImport(LONG, SHORT)))
  })

  it('a corrupt compressed rollout is reported by its path; the others import', async () => {
    const home = join(tempDir(), 'codex')
    const whole = zst(real(LONG))
    const corrupt = dated(home, `${LONG}.zst`)
    put(corrupt, whole.subarray(0, Math.floor(whole.length / 2))) // cut short: a copy that did not finish
    put(dated(home, `${SHORT}.zst`), zst(real(SHORT)))
    // Not zstd at all: its first lines cannot say which workspace it belongs to, so it is not listed.
    put(dated(home, 'rollout-2026-02-23T00-00-00-00000000-0000-0000-0000-000000000000.jsonl.zst'), Buffer.from('{"not":"zstd"}\n'))
    const before = hashes(home)
    const rt = runtime({ codex: home })
    const undecodable = (report: { skipped: { file: string; reason: string }[] }) => report.skipped.filter((s) => s.reason.includes('could not be decoded'))
    const report = await rt.imports.importAll()
    expect(undecodable(report)).toEqual([expect.objectContaining({ file: corrupt, reason: expect.stringContaining(`compressed file ${corrupt} could not be decoded (zstd)`) as unknown })])
    expect(transcript(rt).filter((line) => line.startsWith('019c8bfe'))).toEqual(transcript(await plainImport(SHORT)))
    // Reported again by the next import, and nothing written twice.
    const imported = transcript(rt)
    expect(undecodable(await rt.imports.importAll())).toEqual([expect.objectContaining({ file: corrupt })])
    expect(transcript(rt)).toEqual(imported)
    expect(hashes(home)).toEqual(before)
  })

  it('a compressed rollout the zstd command wrote is read the same (a user compressing by hand)', async () => {
    const home = join(tempDir(), 'codex')
    put(dated(home, LONG), real(LONG))
    const { execFileSync } = await import('node:child_process')
    try {
      execFileSync('zstd', ['-q', '--rm', '-19', dated(home, LONG)])
    } catch {
      return // no zstd command here: Node's own encoder is tested above
    }
    expect(statSync(dated(home, `${LONG}.zst`)).size).toBeGreaterThan(0)
    const rt = runtime({ codex: home })
    expect(skippedLines(await rt.imports.importAll())).toEqual((await plainImportReport(LONG)).skipped)
    expect(transcript(rt)).toEqual(transcript(await plainImport(LONG)))
  })

  it('is decoded on the import\'s parse thread as on the main thread', async () => {
    // Recorded in the folder of 6 MB of Claude Code sessions: one import large enough for the thread.
    const bytes = Buffer.from(real(LONG).toString('utf8').replaceAll('/redacted/path/59b923df4d', SPOTTER_CWD))
    const claude = join(tempDir(), 'claude')
    writeSpotterCopies(claude, 6)
    const home = join(tempDir(), 'codex')
    put(dated(home, `${LONG}.zst`), zst(bytes))
    const started = ParseThread.counts.started
    const threaded = runtime({ claude, codex: home })
    const report = await threaded.imports.importAll()
    expect(ParseThread.counts.started, 'a thread was started').toBeGreaterThan(started)

    const alone = join(tempDir(), 'codex')
    put(dated(alone, LONG), bytes)
    const inline = runtime({ codex: alone })
    const inlineReport = await inline.imports.importAll()
    const ofRollout = (r: typeof report) => skippedLines({ skipped: r.skipped.filter((s) => s.file.includes(LONG)) })
    expect(ofRollout(report)).toEqual(ofRollout(inlineReport))
    const codexOnly = (rt: Runtime) => transcript(rt).filter((line) => line.startsWith('019c8a59'))
    expect(codexOnly(inline).length).toBeGreaterThan(100)
    expect(codexOnly(threaded)).toEqual(codexOnly(inline))
  }, 60_000)

  it('followed live: compressed, then decompressed and written on, without reading it again meanwhile', async () => {
    const workspace = tempDir()
    const home = join(tempDir(), 'codex')
    // The rollout recorded in this workspace (its own cwd, redacted in the fixture, swapped).
    const bytes = Buffer.from(real(LONG).toString('utf8').replaceAll('/redacted/path/59b923df4d', workspace))
    const lines = bytes.toString('utf8').split(/(?<=\n)/)
    const firstPart = Buffer.from(lines.slice(0, 1500).join(''))
    put(dated(home, LONG), firstPart)
    const live = runtime({ codex: home }, { followImports: true })
    const call = contractCaller(live)
    const { id: workspaceId } = await call('workspaces.open', { path: workspace })
    const report = async () => (await call('imports.status', { workspaceId })).report
    await until(async () => ((await report())?.messages ?? 0) > 0)
    await until(() => Promise.resolve(importedPaths(live, home).length === 1))
    const first = transcript(live)

    put(dated(home, `${LONG}.zst`), zst(firstPart))
    rmSync(dated(home, LONG))
    await until(() => Promise.resolve(importedPaths(live, home)[0]?.endsWith('.zst') === true))
    const files = (await report())?.files
    await new Promise((resolve) => setTimeout(resolve, 3000)) // polls every 400 ms, discovery every 2 s
    expect((await report())?.files).toBe(files)
    expect(transcript(live)).toEqual(first)

    put(dated(home, LONG), bytes)
    rmSync(dated(home, `${LONG}.zst`))
    await until(() => Promise.resolve(transcript(live).length > first.length))
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const whole = join(tempDir(), 'codex')
    put(dated(whole, LONG), bytes)
    const clean = runtime({ codex: whole })
    await clean.imports.importAll()
    expect(transcript(live)).toEqual(transcript(clean))
  }, 30_000)
})

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const start = Date.now()
  while (!(await condition())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
