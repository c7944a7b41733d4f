import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createRuntime, type Runtime } from './runtime'
import { databaseOf } from '../store/raw-database'
import { ClaudeHome } from '../sources/testing/claude-home'
import { importTestbed } from '../sources/testing/import-testbed'

const { tempDir } = importTestbed('retrace-close-')

/** A runtime following imports live, whose imports wait `fileDelayMs` before each file (so one is under way when it closes). */
function slowRuntime(home: ClaudeHome, extra: Partial<Parameters<typeof createRuntime>[0]> = {}): Runtime {
  return createRuntime({
    dataDir: join(tempDir(), 'data'),
    host: { binding: 'web' },
    version: 'test',
    env: { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: home.root, CODEX_HOME: '/nonexistent', RETRACE_IMPORT_FILE_DELAY_MS: '150' },
    followImports: true,
    ...extra
  })
}

function homeWithSessions(cwd: string, count: number): ClaudeHome {
  const home = new ClaudeHome(join(tempDir(), 'claude'))
  for (let i = 0; i < count; i++) {
    const session = home.session(cwd)
    session.prompt(`question ${i}`)
    session.say(`answer ${i}`)
  }
  return home
}

describe('closing a runtime ends its background work before the store closes (R41)', () => {
  it('cancels the live import of an open workspace and closes the store only once it stopped', async () => {
    const cwd = join(tempDir(), 'project')
    const rt = slowRuntime(homeWithSessions(cwd, 6))
    await rt.ready
    const workspaceId = rt.store.workspaces.open(cwd, 'project')
    const errors: string[] = []
    rt.imports.watch(workspaceId, (error) => errors.push(error instanceof Error ? error.message : String(error)))
    const started = new Promise<void>((resolve) => rt.feed.subscribe((event) => event.name === 'import.progress' && resolve()))
    await started
    rt.close()
    await rt.closed
    expect(rt.imports.status(workspaceId).state).toBe('cancelled')
    expect(errors).toEqual([])
    expect(databaseOf(rt.store).open).toBe(false)
  })

  it('waits for a follow check that was discovering files when it closed: no import starts on a closing store', async () => {
    const cwd = join(tempDir(), 'project')
    const rt = slowRuntime(homeWithSessions(cwd, 2))
    await rt.ready
    const workspaceId = rt.store.workspaces.open(cwd, 'project')
    const errors: string[] = []
    // The follow loop's first check starts on the next tick, discovering the files asynchronously.
    rt.imports.watch(workspaceId, (error) => errors.push(error instanceof Error ? error.message : String(error)))
    await new Promise((resolve) => setImmediate(resolve))
    rt.close()
    await rt.closed
    expect(errors).toEqual([])
    expect(rt.imports.workUnderWay()).toEqual([])
    expect(rt.imports.closeProblems()).toEqual([])
  })

  it('ends the background rounds of every agent history before closing the store', async () => {
    const home = homeWithSessions(join(tempDir(), 'project'), 6)
    const failures: unknown[] = []
    const rt = slowRuntime(home, {
      backgroundImport: true,
      onBackgroundError: (error) => failures.push(error),
      env: { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: home.root, CODEX_HOME: '/nonexistent', RETRACE_IMPORT_FILE_DELAY_MS: '150', RETRACE_BACKGROUND_IMPORT_INTERVAL_MS: '10' }
    })
    await new Promise<void>((resolve) => rt.feed.subscribe((event) => event.name === 'import.progress' && resolve()))
    rt.close()
    await rt.closed
    expect(failures).toEqual([])
    expect(rt.imports.workUnderWay()).toEqual([])
    expect(databaseOf(rt.store).open).toBe(false)
  })
})
