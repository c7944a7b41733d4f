import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createRuntime, type Runtime } from '../runtime/runtime'
import { ClaudeHome } from './testing/claude-home'
import { importTestbed } from './testing/import-testbed'

const { tempDir } = importTestbed('retrace-background-')

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now()
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

function appRuntime(home: ClaudeHome, env: NodeJS.ProcessEnv): Runtime {
  return createRuntime({
    dataDir: join(tempDir(), 'data'),
    host: { binding: 'web' },
    version: 'test',
    env: { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: home.root, CODEX_HOME: '/nonexistent', ...env },
    followImports: true,
    backgroundImport: true,
    onBackgroundError: (error) => {
      throw error
    }
  })
}

const sessionsIn = (rt: Runtime, cwd: string) => {
  const workspace = rt.store.workspaces.getByPath(cwd)
  return workspace ? rt.store.sessions.list({ workspaceId: workspace.id, limit: 50, includeWarmups: true }).items : []
}

describe('the app imports every agent history in the background', () => {
  it('imports at start, then picks up new sessions and new lines of workspaces nobody opened', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const first = home.session('/work/alpha')
    first.prompt('plan the alpha release')
    first.say('Here is a plan.')
    const rt = appRuntime(home, { RETRACE_BACKGROUND_IMPORT_INTERVAL_MS: '50' })
    try {
      await until(() => sessionsIn(rt, '/work/alpha').length === 1)

      // A session started in another folder, never opened in Retrace, and a grown file.
      const second = home.session('/work/beta')
      second.prompt('fix the beta bug')
      first.prompt('and the changelog')
      await until(() => sessionsIn(rt, '/work/beta').length === 1)
      await until(() => sessionsIn(rt, '/work/alpha')[0]?.turnCount === 2)
      expect(sessionsIn(rt, '/work/beta')[0]?.title).toContain('fix the beta bug')
      // Found, not opened: the recently opened list is the user's, not every folder's.
      expect(rt.store.workspaces.getByPath('/work/beta')?.lastOpenedAt).toBeNull()
      expect(rt.store.workspaces.listRecent(10).map((workspace) => workspace.path)).toEqual(expect.arrayContaining(['/work/alpha', '/work/beta']))
    } finally {
      rt.close()
    }
  })

  it('does nothing when tuned off (RETRACE_BACKGROUND_IMPORT=0), nor in a runtime that did not ask for it', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    home.session('/work/gamma').prompt('hello')
    const off = appRuntime(home, { RETRACE_BACKGROUND_IMPORT: '0', RETRACE_BACKGROUND_IMPORT_INTERVAL_MS: '20' })
    const oneShot = createRuntime({ dataDir: join(tempDir(), 'data'), host: { binding: 'web' }, version: 'test', env: { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: home.root, RETRACE_BACKGROUND_IMPORT_INTERVAL_MS: '20' } })
    try {
      await off.ready
      await oneShot.ready
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(off.store.workspaces.listAll()).toEqual([])
      expect(oneShot.store.workspaces.listAll()).toEqual([])
    } finally {
      off.close()
      oneShot.close()
    }
  })
})

describe('retrace import --all --watch', () => {
  it('imports, keeps following until interrupted, one line per round that added something, and closes the store', async () => {
    const { runCli } = await import('../cli/main')
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    home.session('/work/delta').prompt('first task')
    const dataDir = join(tempDir(), 'data')
    const out: string[] = []
    const err: string[] = []
    const interrupt = new AbortController()
    const env = { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: home.root, CODEX_HOME: '/nonexistent', RETRACE_BACKGROUND_IMPORT_INTERVAL_MS: '30' }
    const running = runCli(['import', '--all', '--watch', '--data-dir', dataDir], { out: (text) => out.push(text), err: (text) => err.push(text) }, env, interrupt.signal)
    await until(() => out.length === 1)
    expect(out[0]).toMatch(/^\d{4}-\d\d-\d\dT.*1 file read: 1 new session, 1 messages/)
    await new Promise((resolve) => setTimeout(resolve, 150)) // rounds that add nothing print nothing
    expect(out).toHaveLength(1)
    home.session('/work/epsilon').prompt('second task')
    await until(() => out.length === 2)
    expect(out[1]).toContain('1 new session')
    interrupt.abort()
    expect(await running).toBe(0)
    expect(err[0]).toContain('Ctrl-C stops')

    // The store was closed cleanly: another process opens it and finds both workspaces.
    const after = createRuntime({ dataDir, host: { binding: 'web' }, version: 'test', env, followImports: false })
    try {
      expect(after.store.workspaces.listAll().map((workspace) => workspace.path).sort()).toEqual(['/work/delta', '/work/epsilon'])
    } finally {
      after.close()
    }
  })

  it('waits while the app runs on the same data folder (it imports the same histories), then goes on', async () => {
    const { runCli } = await import('../cli/main')
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    home.session('/work/zeta').prompt('first task')
    const dataDir = join(tempDir(), 'data')
    const out: string[] = []
    const err: string[] = []
    const interrupt = new AbortController()
    const env = { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: home.root, CODEX_HOME: '/nonexistent', RETRACE_BACKGROUND_IMPORT_INTERVAL_MS: '30' }
    const running = runCli(['import', '--all', '--watch', '--data-dir', dataDir], { out: (text) => out.push(text), err: (text) => err.push(text) }, env, interrupt.signal)
    await until(() => out.length === 1)
    // The app starts; its own rounds are slow here, so that only the service could import meanwhile.
    const app = createRuntime({ dataDir, host: { binding: 'web' }, version: 'test', env: { ...env, RETRACE_BACKGROUND_IMPORT_INTERVAL_MS: '600000' }, followImports: true, backgroundImport: true })
    try {
      await until(() => err.some((line) => line.includes('waiting until it closes')))
      home.session('/work/eta').prompt('second task')
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(out).toHaveLength(1)
    } finally {
      app.close()
    }
    home.session('/work/theta').prompt('third task')
    await until(() => out.length === 2)
    expect(out[1]).toMatch(/\d new sessions?/)
    expect(err.some((line) => line.includes('importing again'))).toBe(true)
    interrupt.abort()
    expect(await running).toBe(0)
  })

  it('goes with --all alone', async () => {
    const { runCli } = await import('../cli/main')
    const err: string[] = []
    const code = await runCli(['import', '--watch', '--data-dir', join(tempDir(), 'data')], { out: () => undefined, err: (text) => err.push(text) }, { HOME: '/nonexistent' })
    expect(code).toBe(2)
    expect(err.join('\n')).toContain('--watch goes with --all')
  })
})

describe('what a round says', () => {
  it('names what it added and the files found deleted or back, and nothing for a round that found nothing', async () => {
    const { roundSummary } = await import('./import-rounds')
    const report = { files: 0, sessions: 0, messages: 0, toolCalls: 0, fileChanges: 0, skipped: [], changesNotJournaled: [], unread: [], workspaces: [], refused: [], readOnly: [], sourcesGone: { marked: 0, cleared: 0 }, unplaced: [] }
    expect(roundSummary(report)).toBeNull()
    expect(roundSummary({ ...report, sourcesGone: { marked: 2, cleared: 1 } })).toBe('2 imported files deleted by their agents (sessions kept); 1 deleted file back')
    expect(roundSummary({ ...report, files: 1, sessions: 1, messages: 3 })).toBe('1 file read: 1 new session, 3 messages, 0 file changes')
  })
})
