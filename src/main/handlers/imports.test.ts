import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { EventMessage, EventPayload, MethodOutput, RpcError } from '../../shared/contract'
import type { Runtime } from '../runtime/runtime'
import { ClaudeHome, FIXTURES } from '../sources/testing/claude-home'
import { contractCaller, importTestbed, type ContractCall } from '../sources/testing/import-testbed'
import { databaseOf } from '../store/raw-database'

const SPOTTER_CWD = '/home/USER/projects/spotter-worktrees/spotter-4te'

const { tempDir, runtime: testRuntime } = importTestbed('retrace-imports-')

/** A runtime whose importers read `home`, called through the same wrapper the bindings use. */
function runtime(home: ClaudeHome, followImports: boolean): { rt: Runtime; call: ContractCall; events: EventMessage[] } {
  const rt = testRuntime({ claude: home.root }, { followImports })
  const events: EventMessage[] = []
  rt.feed.subscribe((event) => events.push(event))
  return { rt, call: contractCaller(rt), events }
}

/** Cancel through the contract as soon as the import has finished `done` files. */
function cancelAfter(rt: Runtime, call: ContractCall, workspaceId: number, done: number): Promise<MethodOutput<'imports.cancel'>> {
  return new Promise((resolve, reject) => {
    const stop = rt.feed.subscribe((event) => {
      if (event.name !== 'import.progress' || event.payload.workspaceId !== workspaceId || event.payload.done !== done) return
      stop()
      call('imports.cancel', { workspaceId }).then(resolve, reject)
    })
  })
}

const importedFiles = (rt: Runtime) => (databaseOf(rt.store).prepare('SELECT path FROM import_files ORDER BY path').all() as { path: string }[]).map((row) => row.path)
const finished = (events: EventMessage[]) => events.filter((event): event is { name: 'import.finished'; payload: EventPayload<'import.finished'> } => event.name === 'import.finished').map((event) => event.payload)

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const start = Date.now()
  while (!(await condition())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('cancelling an import through the contract', () => {
  it('stops imports.run between files, keeps what was committed, reports it, and the next run finishes the rest', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    home.addFixtureProject(join(FIXTURES, 'claude-code/spotter/projects-dir'), SPOTTER_CWD)
    const { rt, call, events } = runtime(home, false)
    const workspaceId = rt.store.workspaces.open(SPOTTER_CWD, 'spotter')
    expect(await call('imports.lastReport', { workspaceId })).toBeNull()
    expect(await call('imports.status', { workspaceId })).toMatchObject({ state: 'idle', progress: null, report: null, pendingFiles: 0 })

    const cancel = cancelAfter(rt, call, workspaceId, 1)
    const run = call('imports.run', { workspaceId })
    const failure = await run.then(() => null, (error: { rpc: RpcError }) => error.rpc)
    expect(await cancel).toEqual({ cancelled: true })
    expect(failure?.code).toBe('CANCELLED')
    expect(failure?.message).toContain('continues from there')

    expect(importedFiles(rt)).toHaveLength(1)
    const status = await call('imports.status', { workspaceId })
    expect(status).toMatchObject({ state: 'cancelled', progress: null, pendingFiles: 2, error: null })
    // The file it was reading when cancelled counts as read (a long one may have committed chunks).
    expect(status.report?.files).toBeGreaterThanOrEqual(1)
    expect(status.finishedAt).toBeGreaterThan(0)
    expect(finished(events)).toEqual([expect.objectContaining({ workspaceId, outcome: 'cancelled', done: 1, total: 3, pendingFiles: 2 })])
    // The committed file's sessions are already visible to the renderer.
    expect(events.some((event) => event.name === 'import.progress' && event.payload.total === 3)).toBe(true)
    await until(() => events.some((event) => event.name === 'data.changed' && event.payload.entities.includes('sessions')))

    // Nothing running: nothing to cancel.
    expect(await call('imports.cancel', { workspaceId })).toEqual({ cancelled: false })

    const rest = await call('imports.run', { workspaceId })
    expect(rest.files).toBe(2)
    expect(rest.sessions).toBe(2)
    expect(importedFiles(rt)).toHaveLength(3)
    expect(await call('imports.status', { workspaceId })).toMatchObject({ state: 'done', pendingFiles: 0 })
    // The report sums both runs.
    const report = await call('imports.lastReport', { workspaceId })
    expect(report?.sessions).toBe(3)
    expect(report?.toolCalls).toBe(242 + 12)
    // The file the first run finished is unchanged: nothing to read, not counted.
    expect(finished(events).at(-1)).toMatchObject({ outcome: 'done', done: 2, total: 2, pendingFiles: 0 })
  })

  it('stops the live-follow step only: sessions already imported keep following, the rest wait for imports.run', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const workspace = tempDir()
    const sessions = ['first', 'second', 'third'].map((name) => {
      const session = home.session(workspace)
      session.prompt(`${name} question`)
      session.say(`${name} answer`)
      return session
    })
    const { rt, call, events } = runtime(home, true)
    const id = rt.store.workspaces.open(workspace, 'ws')
    const cancel = cancelAfter(rt, call, id, 1)
    // Opening it starts the background import and the live following.
    await call('workspaces.reopen', { workspaceId: id })
    expect(await cancel).toEqual({ cancelled: true })
    await until(() => finished(events).length > 0)
    expect(finished(events)[0]).toMatchObject({ outcome: 'cancelled', pendingFiles: 2 })
    const [done] = importedFiles(rt)
    expect(importedFiles(rt)).toHaveLength(1)

    // Several follow steps later the left-over files are still waiting...
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(importedFiles(rt)).toHaveLength(1)
    expect(await call('imports.status', { workspaceId: id })).toMatchObject({ pendingFiles: 2 })
    // ...while the imported session is still followed live.
    const followed = sessions.find((session) => session.path === done)
    followed?.say('a line written after the cancel')
    await until(() => databaseOf(rt.store).prepare("SELECT 1 FROM messages WHERE content = 'a line written after the cancel'").get() !== undefined)
    expect(importedFiles(rt)).toHaveLength(1)

    // imports.run takes up the rest.
    expect(await call('imports.run', { workspaceId: id })).toMatchObject({ files: 2, sessions: 2 })
    expect(importedFiles(rt)).toHaveLength(3)
    const status = await call('imports.status', { workspaceId: id })
    expect(status).toMatchObject({ pendingFiles: 0, report: { sessions: 3 } })
    expect(status.report?.messages).toBe(7)
  })

  it('answers NOT_FOUND for a workspace that does not exist', async () => {
    const { call } = runtime(new ClaudeHome(join(tempDir(), 'claude')), false)
    for (const method of ['imports.cancel', 'imports.status', 'imports.lastReport'] as const) {
      await expect(call(method, { workspaceId: 999 })).rejects.toThrow(/^NOT_FOUND/)
    }
  })
})
