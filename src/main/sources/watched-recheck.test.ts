import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Runtime } from '../runtime/runtime'
import { ClaudeHome } from './testing/claude-home'
import { importTestbed } from './testing/import-testbed'

const { tempDir, runtime } = importTestbed('retrace-watched-recheck-')

const turnsIn = (rt: Runtime, cwd: string): number => {
  const workspace = rt.store.workspaces.getByPath(cwd)
  const [session] = workspace ? rt.store.sessions.list({ workspaceId: workspace.id, limit: 5, includeWarmups: true }).items : []
  return session?.turnCount ?? 0
}

/** Re-check (`import --all` in a running app) until `done`; the kinds of the rounds it took. */
async function recheckUntil(rt: Runtime, done: () => boolean): Promise<('full' | 'watched' | null)[]> {
  const kinds: ('full' | 'watched' | null)[] = []
  for (let round = 0; round < 500 && !done(); round++) {
    await rt.imports.importAll()
    kinds.push(rt.imports.lastRecheck)
    if (!done()) await new Promise((resolve) => setTimeout(resolve, 10))
  }
  expect(done()).toBe(true)
  return kinds
}

function app(home: ClaudeHome, env: NodeJS.ProcessEnv = {}): Runtime {
  return runtime({ claude: home.root }, { followImports: true, env })
}

describe("a running app's re-check reads what its watch of the agents' folders saw change (R75)", () => {
  it('imports a line appended while the app runs without a full pass, and a new project folder by one', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const session = home.session('/work/alpha')
    session.prompt('plan the release')
    const rt = app(home)
    await rt.imports.importAll()
    expect(rt.imports.lastRecheck).toBe('full')
    expect(turnsIn(rt, '/work/alpha')).toBe(1)
    // Nothing changed: no stat of every file.
    const again = await rt.imports.importAll()
    expect(rt.imports.lastRecheck).toBe('watched')
    expect(again.files).toBe(0)
    expect(again.workspaces.map((workspace) => workspace.path)).toEqual(['/work/alpha'])

    session.prompt('and the changelog')
    const kinds = await recheckUntil(rt, () => turnsIn(rt, '/work/alpha') === 2)
    expect(new Set(kinds)).toEqual(new Set(['watched']))

    // A file replaced by a rename (an editor's or a tool's atomic write) is read again too.
    const grown = `${readFileSync(session.path, 'utf8')}${readFileSync(session.path, 'utf8').split('\n')[0]?.replace(/"uuid":"[^"]+"/, '"uuid":"renamed-1"').replace(/"parentUuid":[^,]+/, '"parentUuid":null')}\n`
    writeFileSync(`${session.path}.tmp`, grown)
    renameSync(`${session.path}.tmp`, session.path)
    await recheckUntil(rt, () => rt.imports.lastRecheck === 'full')

    // A new project (a new folder under projects/) is found by the full pass its path calls for, then watched.
    const beta = home.session('/work/beta')
    beta.prompt('fix the beta bug')
    await recheckUntil(rt, () => turnsIn(rt, '/work/beta') === 1)
    beta.prompt('and its test')
    const later = await recheckUntil(rt, () => turnsIn(rt, '/work/beta') === 2)
    expect(later.at(-1)).toBe('watched')
  })

  it('watches an agent folder deleted and made again', async () => {
    const root = join(tempDir(), 'claude')
    const home = new ClaudeHome(root)
    home.session('/work/alpha').prompt('plan the release')
    const rt = app(home)
    await rt.imports.importAll()
    rmSync(root, { recursive: true, force: true })
    await rt.imports.importAll()
    const again = new ClaudeHome(root).session('/work/gamma')
    again.prompt('start over')
    await recheckUntil(rt, () => turnsIn(rt, '/work/gamma') === 1)
    again.prompt('and go on')
    const kinds = await recheckUntil(rt, () => turnsIn(rt, '/work/gamma') === 2)
    expect(kinds.at(-1)).toBe('watched')
  })

  it('catches what the watch missed by the full pass it runs all the same', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const session = home.session('/work/alpha')
    session.prompt('plan the release')
    // A watch that starts and reports nothing: every event is missed.
    const rt = app(home, { RETRACE_IMPORT_WATCH_FAULT: 'deaf', RETRACE_IMPORT_FULL_PASS_MS: '300' })
    await rt.imports.importAll()
    session.prompt('and the changelog')
    const watchedBefore: number[] = []
    const kinds = await recheckUntil(rt, () => {
      if (rt.imports.lastRecheck === 'watched') watchedBefore.push(turnsIn(rt, '/work/alpha'))
      return turnsIn(rt, '/work/alpha') === 2
    })
    expect(kinds.at(-1)).toBe('full')
    expect(watchedBefore.every((turns) => turns === 1)).toBe(true)
  })

  it('looks through every file each round when the watch cannot start', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const session = home.session('/work/alpha')
    session.prompt('plan the release')
    const rt = app(home, { RETRACE_IMPORT_WATCH_FAULT: 'start' })
    await rt.imports.importAll()
    await rt.imports.importAll()
    expect(rt.imports.lastRecheck).toBe('full')
    session.prompt('and the changelog')
    await rt.imports.importAll()
    expect(rt.imports.lastRecheck).toBe('full')
    expect(turnsIn(rt, '/work/alpha')).toBe(2)
  })

  // What Claude Code and Codex write on every prompt beside their transcripts is not watched
  // (watchFolders on their adapters): without it, each new todo or history line would be a
  // rename event, so a full pass, and 5,000 sessions' file-history folders would pass the
  // watch's folder limit, so every round a full pass.
  it("ignores the agents' other files, and watches a projects folder beside 5,000 file-history folders", async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const session = home.session('/work/alpha')
    session.prompt('plan the release')
    for (let i = 0; i < 5_000; i++) mkdirSync(join(home.root, 'file-history', `0000${String(i).padStart(4, '0')}-0000-4000-8000-000000000000`), { recursive: true })
    const rt = app(home)
    await rt.imports.importAll()
    expect(rt.imports.lastRecheck).toBe('full')
    for (const folder of ['todos', 'debug', 'shell-snapshots', 'statsig']) {
      mkdirSync(join(home.root, folder), { recursive: true })
      writeFileSync(join(home.root, folder, `${session.sessionId}.json`), '[]')
    }
    const memory = join(dirname(session.path), 'memory')
    mkdirSync(memory, { recursive: true })
    writeFileSync(join(memory, 'MEMORY.md'), 'remember')
    session.prompt('and the changelog')
    const kinds = await recheckUntil(rt, () => turnsIn(rt, '/work/alpha') === 2)
    expect(new Set(kinds)).toEqual(new Set(['watched']))
  })

  it("reads a Codex rollout's new lines without a full pass for history.jsonl or log/", async () => {
    const codexHome = join(tempDir(), 'codex')
    const cwd = '/work/codex-app'
    const folder = join(codexHome, 'sessions', '2026', '01', '01')
    mkdirSync(folder, { recursive: true })
    const rollout = join(folder, 'rollout-2026-01-01T10-00-00-019b0000-0000-7000-8000-00000000c0c0.jsonl')
    const line = (payload: object, second: number) => `${JSON.stringify({ timestamp: `2026-01-01T10:00:${String(second).padStart(2, '0')}.000Z`, ...payload })}\n`
    const prompt = (text: string, second: number) => line({ type: 'event_msg', payload: { type: 'user_message', message: text, images: [] } }, second)
    writeFileSync(rollout, line({ type: 'session_meta', payload: { id: '019b0000-0000-7000-8000-00000000c0c0', timestamp: '2026-01-01T10:00:00.000Z', cwd, originator: 'codex_cli_rs', cli_version: '0.125.0' } }, 0) + prompt('read the config', 1))
    const rt = runtime({ codex: codexHome }, { followImports: true })
    await rt.imports.importAll()
    expect(turnsIn(rt, cwd)).toBe(1)
    writeFileSync(join(codexHome, 'history.jsonl'), `${JSON.stringify({ session_id: '019b0000-0000-7000-8000-00000000c0c0', ts: 1767261602, text: 'and fix it' })}\n`)
    mkdirSync(join(codexHome, 'log'), { recursive: true })
    writeFileSync(join(codexHome, 'log', 'codex-tui.log'), 'started\n')
    appendFileSync(rollout, prompt('and fix it', 2))
    const kinds = await recheckUntil(rt, () => turnsIn(rt, cwd) === 2)
    expect(new Set(kinds)).toEqual(new Set(['watched']))
  })
})
