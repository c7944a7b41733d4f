import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
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
})
