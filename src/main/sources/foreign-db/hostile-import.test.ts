import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { contractCaller, importTestbed } from '../testing/import-testbed'
import { endlessViewDb, slowDb } from './testing/hostile-databases'

const ROOT = resolve(__dirname, '../../../..')
const CLI = join(ROOT, 'src/main/testing/cli-process.ts')
const TRAVAI = join(FIXTURES, 'langgraph/travai/checkpoints.sqlite')

describe('a folder holding a hostile or huge database cannot freeze Retrace', () => {
  const { tempDir, runtime } = importTestbed('retrace-hostile-db-')

  /** A cloned repository: the endless view, a store too big for the limit, and a genuine LangGraph database. */
  function repository(): string {
    const root = join(tempDir(), 'cloned')
    mkdirSync(root)
    endlessViewDb(join(root, 'checkpoints.sqlite'))
    slowDb(join(root, 'checkpoint.db'))
    copyFileSync(TRAVAI, join(root, 'checkpoints.db'))
    return root
  }

  it('`retrace import` (a real process) reports the view as refused and the huge store as too slow, imports the rest, and exits', () => {
    const root = repository()
    const home = tempDir()
    const started = Date.now()
    const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite-node/dist/cli.mjs'), CLI, '--', 'import', root, '--data-dir', join(home, 'data')], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 90_000,
      env: { ...process.env, HOME: home, XDG_STATE_HOME: join(home, 'state'), CLAUDE_CONFIG_DIR: join(home, 'none'), CODEX_HOME: join(home, 'none'), RETRACE_FOREIGN_DB_TIME_LIMIT_MS: '1500' }
    })
    expect(result.signal, `${result.stdout}\n${result.stderr}`).toBeNull()
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toContain('2 new sessions')
    expect(result.stdout).toContain(`${join(root, 'checkpoints.sqlite')} was not read (refused): its "checkpoints" is a view, not a table`)
    expect(result.stdout).toContain(`${join(root, 'checkpoint.db')} took longer than 1.5 s to read and was skipped`)
    expect(Date.now() - started).toBeLessThan(60_000)
  })

  it('the runtime keeps answering within a second while such a file is being read', async () => {
    vi.stubEnv('RETRACE_FOREIGN_DB_TIME_LIMIT_MS', '3000')
    try {
      const call = contractCaller(runtime({}))
      const root = repository()
      const workspace = await call('workspaces.open', { path: root })
      let importing = true
      const started = Date.now()
      const run = call('imports.run', { workspaceId: workspace.id, sources: ['langgraph'] }).finally(() => {
        importing = false
      })
      const latencies: number[] = []
      while (importing) {
        const asked = Date.now()
        await call('sessions.list', { workspaceId: workspace.id })
        await call('app.info', {})
        latencies.push(Date.now() - asked)
        await new Promise((done) => setTimeout(done, 100))
      }
      const report = await run
      // The import lasted at least the time limit; the calls made meanwhile were answered at once.
      expect(Date.now() - started).toBeGreaterThanOrEqual(3000)
      expect(latencies.length).toBeGreaterThan(10)
      expect(Math.max(...latencies)).toBeLessThan(1000)
      expect(report.sessions).toBe(2)
      const reasons = report.skipped.map((skip) => skip.reason)
      expect(reasons).toContainEqual(expect.stringMatching(/checkpoints\.sqlite was not read \(refused\): its "checkpoints" is a view/) as string)
      expect(reasons).toContainEqual(expect.stringMatching(/checkpoint\.db took longer than 3 s to read and was skipped/) as string)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('a store stopped at the time limit is read again by the next import (a limit since raised)', async () => {
    const call = contractCaller(runtime({}))
    const root = join(tempDir(), 'travai')
    mkdirSync(root)
    copyFileSync(TRAVAI, join(root, 'checkpoints.sqlite'))
    const workspace = await call('workspaces.open', { path: root })
    vi.stubEnv('RETRACE_FOREIGN_DB_TIME_LIMIT_MS', '1')
    try {
      const first = await call('imports.run', { workspaceId: workspace.id, sources: ['langgraph'] })
      expect(first.sessions).toBe(0)
      expect(first.skipped.map((skip) => skip.reason)).toEqual([expect.stringMatching(/checkpoints\.sqlite took longer than 1 ms to read and was skipped/) as string])
    } finally {
      vi.unstubAllEnvs()
    }
    expect(await call('imports.run', { workspaceId: workspace.id, sources: ['langgraph'] })).toMatchObject({ sessions: 2, skipped: [] })
  })
})
