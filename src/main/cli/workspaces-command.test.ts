import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WorkspaceListing } from '../../shared/contract'
import { copiedHistories, RECORDED, SPOTTER_SESSION } from '../sources/testing/copied-histories'

const ROOT = resolve(__dirname, '../../..')
const CLI = join(ROOT, 'src/main/testing/cli-process.ts')

describe('the retrace command on histories whose folders are gone (in a process of its own)', () => {
  let dir: string
  let env: NodeJS.ProcessEnv
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'retrace-cli-missing-'))
    const roots = copiedHistories(dir)
    env = { ...process.env, HOME: join(dir, 'home'), XDG_STATE_HOME: join(dir, 'state'), CLAUDE_CONFIG_DIR: roots.claude, CODEX_HOME: roots.codex, RETRACE_HOME: '', TZ: 'UTC' }
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const retrace = (...args: string[]) => {
    const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite-node/dist/cli.mjs'), CLI, '--', ...args, '--data-dir', join(dir, 'data')], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env })
    return { code: result.status, out: result.stdout, err: result.stderr }
  }

  it('lists the workspaces the copied histories record, folders missing; sessions of one; a rewind refused there, a fork without files made', () => {
    const listed = retrace('workspaces')
    expect(listed.err).toBe('')
    expect(listed.out).toContain('5 workspaces (no folder here for 5: still browsable with `retrace sessions PATH`, not rewindable).')
    expect(listed.out).toMatch(new RegExp(`2026-02-12 \\d\\d:\\d\\d\\s+3\\s+—\\s+missing\\s+no\\s+claude-code 3\\s+${RECORDED.spotter}`))

    const json = JSON.parse(retrace('workspaces', '--json').out) as WorkspaceListing[]
    expect(json.map((item) => item.path).sort()).toEqual(Object.values(RECORDED).sort())
    expect(json.every((item) => !item.folderExists)).toBe(true)

    const sessions = retrace('sessions', RECORDED.spotter)
    expect(sessions.err).toBe('')
    expect(sessions.code).toBe(0)
    // Its /compact agent is listed with the warm-ups (R56): two of its three sessions shown.
    expect(sessions.out).toContain(`${RECORDED.spotter} — 2 sessions`)
    expect(sessions.out).toContain('Work on bead spotter-4te')

    const nobody = retrace('sessions', '/home/USER/projects/never-recorded')
    expect(nobody.code).toBe(1)
    expect(nobody.err.trim()).toBe('retrace: There is no folder at /home/USER/projects/never-recorded, and no agent history records it. Check the path, or choose another folder (`retrace workspaces` lists the recorded ones).')

    const rewind = retrace('rewind', SPOTTER_SESSION, '--turn', '1', '--yes')
    expect(rewind.code).toBe(1)
    expect(rewind.err).toContain(`retrace: The folder of this workspace, ${RECORDED.spotter}, is not on this computer`)
    expect(rewind.err).toContain('nothing was written')
    expect(existsSync(RECORDED.spotter)).toBe(false)

    const fork = retrace('fork', SPOTTER_SESSION, '--turn', '2', '--name', 'from the copy')
    expect(fork.err).toBe('')
    expect(fork.out).toMatch(/^Branch [0-9a-f-]{36} forked from before turn 2\.$/m)
  }, 120_000)

  it('hides a workspace and lists it again; forgets one only with consent, saying how many sessions go, its files kept', () => {
    const hidden = retrace('workspaces', 'hide', RECORDED.codemie)
    expect(hidden.err).toBe('')
    expect(hidden.out).toContain(`${RECORDED.codemie} is hidden`)
    expect(retrace('workspaces').out).toContain('4 workspaces (no folder here for 4: still browsable with `retrace sessions PATH`, not rewindable; 1 hidden: --hidden lists them).')
    expect(retrace('workspaces').out).not.toContain(RECORDED.codemie)
    expect(retrace('workspaces', '--hidden').out).toMatch(new RegExp(`missing, hidden\\s+no\\s+claude-code 3\\s+${RECORDED.codemie}`))
    expect(retrace('workspaces', 'unhide', RECORDED.codemie).out).toContain('is listed again')

    expect(retrace('sessions', RECORDED.spotter).code).toBe(0) // imports it
    const asked = retrace('workspaces', 'forget', RECORDED.spotter)
    expect(asked.code).toBe(2)
    // Its three imported sessions, and a branch if the test before forked one (the folder is shared).
    const count = /Pass --yes to forget \S+ \((\d+) sessions\)\./.exec(asked.err)?.[1]
    expect(['3', '4']).toContain(count)
    const forgot = retrace('workspaces', 'forget', RECORDED.spotter, '--yes')
    expect(forgot.err).toBe('')
    expect(forgot.out).toContain(`Forgot ${RECORDED.spotter}: ${count} sessions removed from Retrace.`)
    const json = JSON.parse(retrace('workspaces', '--json').out) as WorkspaceListing[]
    // The history still records it: listed, not imported.
    expect(json.find((item) => item.path === RECORDED.spotter)).toMatchObject({ workspaceId: null, sessionCount: 3 })
  }, 120_000)

  it('import --all says how many workspaces it found, and how many have no folder here', () => {
    const imported = retrace('import', '--all')
    expect(imported.code).toBe(0)
    expect(imported.out).toContain('5 workspaces found. 5 of them have no folder here (deleted, moved, or from another computer): browsable, not rewindable.')
    const json = JSON.parse(retrace('import', '--all', '--json').out) as { workspaces: { path: string; folderExists: boolean }[] }
    expect(json.workspaces.map((w) => [w.path, w.folderExists]).sort()).toEqual(Object.values(RECORDED).map((path) => [path, false]).sort())
  }, 60_000)
})
