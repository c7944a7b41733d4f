import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type RetraceError } from '../../shared/contract'
import { tempDir, tempRuntime } from '../testing/temp-runtime'
import { databaseOf } from '../store/raw-database'

type Runtime = ReturnType<typeof tempRuntime>
const isRoot = process.getuid?.() === 0

describe('workspaces', () => {
  let rt: Runtime
  let dir: ReturnType<typeof tempDir>
  beforeEach(() => {
    rt = tempRuntime()
    dir = tempDir()
  })
  afterEach(() => {
    rt.dispose()
    dir.dispose()
  })

  const openError = async (path: string) => {
    try {
      await rt.handlers['workspaces.open']({ path })
    } catch (error) {
      return error as RetraceError
    }
    throw new Error('expected the open to fail')
  }

  it('opens a folder once, by its real path, and lists it as recent', async () => {
    const project = join(dir.path, 'project')
    mkdirSync(project)
    symlinkSync(project, join(dir.path, 'link'))
    const first = await rt.handlers['workspaces.open']({ path: project })
    const again = await rt.handlers['workspaces.open']({ path: join(dir.path, 'link') })
    expect(again.id).toBe(first.id)
    expect(first).toMatchObject({ name: 'project', sessionCount: 0, isDemo: false, lastActivityAt: null })
    const recent = await rt.handlers['workspaces.listRecent']({ limit: 10 })
    expect(recent.items.map((w) => w.path)).toEqual([first.path])
  })

  it('moves a reopened workspace to the top of the recent list', async () => {
    mkdirSync(join(dir.path, 'a'))
    mkdirSync(join(dir.path, 'b'))
    const a = await rt.handlers['workspaces.open']({ path: join(dir.path, 'a') })
    await new Promise((resolve) => setTimeout(resolve, 5))
    await rt.handlers['workspaces.open']({ path: join(dir.path, 'b') })
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect((await rt.handlers['workspaces.reopen']({ workspaceId: a.id })).name).toBe('a')
    const recent = await rt.handlers['workspaces.listRecent']({ limit: 10 })
    expect(recent.items.map((w) => w.name)).toEqual(['a', 'b'])
    await expect(rt.handlers['workspaces.reopen']({ workspaceId: 999 })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('names the path in a clear error when it is missing, a file, or unreadable', async () => {
    const missing = await openError(join(dir.path, 'nope'))
    expect(missing.code).toBe('PATH_NOT_FOUND')
    expect(missing.message).toContain(join(dir.path, 'nope'))

    writeFileSync(join(dir.path, 'file.txt'), 'x')
    const file = await openError(join(dir.path, 'file.txt'))
    expect(file.code).toBe('NOT_A_DIRECTORY')
    expect(file.message).toContain('file.txt')

    expect((await openError('bad\0path')).code).toBe('VALIDATION')
  })

  // root reads every folder whatever its mode, so the refusal can only be seen as another user.
  it.skipIf(isRoot)('refuses a folder it cannot read (skipped as root, which bypasses permissions; e2e/cli covers it as nobody)', async () => {
    const locked = join(dir.path, 'locked')
    mkdirSync(locked)
    chmodSync(locked, 0o000)
    const error = await openError(locked)
    chmodSync(locked, 0o755)
    expect(error.code).toBe('PATH_UNREADABLE')
    expect(error.message).toContain(locked)
  })

  it('lists sub-folders for the web folder picker, without hidden ones or files', async () => {
    mkdirSync(join(dir.path, 'b'))
    mkdirSync(join(dir.path, 'a'))
    mkdirSync(join(dir.path, '.hidden'))
    writeFileSync(join(dir.path, 'file'), '')
    const listing = await rt.handlers['folders.list']({ path: dir.path })
    expect(listing.entries.map((e) => e.name)).toEqual(['a', 'b'])
    expect(listing.parent).not.toBeNull()
  })

  it('says the native folder dialog is Electron-only in the web binding', async () => {
    await expect(rt.handlers['workspaces.pickFolder']({})).rejects.toMatchObject({ code: 'UNSUPPORTED' })
  })

  it('creates the demo workspace idempotently, with a fork, a sub-agent, a successor, a compaction and tool calls', async () => {
    const demo = await rt.handlers['workspaces.openDemo']({})
    const again = await rt.handlers['workspaces.openDemo']({})
    expect(again.id).toBe(demo.id)
    expect(again.sessionCount).toBe(demo.sessionCount)
    expect(demo.sessionCount).toBeGreaterThanOrEqual(5)
    expect(demo.isDemo).toBe(true)
    const { items } = await rt.handlers['sessions.list']({ workspaceId: demo.id, limit: 100 })
    const kinds = items.map((s) => s.kind)
    expect(kinds).toEqual(expect.arrayContaining(['main', 'branch', 'sub-agent', 'ephemeral']))
    expect(items.some((s) => s.predecessorId !== null)).toBe(true)
    const compacted = databaseOf(rt.store).prepare("SELECT count(*) AS n FROM messages WHERE role = 'compaction_summary'").get() as { n: number }
    const toolCalls = databaseOf(rt.store).prepare("SELECT count(*) AS n FROM messages WHERE role = 'tool_call'").get() as { n: number }
    expect(compacted.n).toBeGreaterThan(0)
    expect(toolCalls.n).toBeGreaterThan(5)
    const total = databaseOf(rt.store).prepare('SELECT count(*) AS n FROM messages').get()
    await rt.handlers['workspaces.openDemo']({})
    expect(databaseOf(rt.store).prepare('SELECT count(*) AS n FROM messages').get()).toEqual(total)
  })

  it('gives the demo journaled file changes that rewind cleanly out of the box, and back', async () => {
    const demo = await rt.handlers['workspaces.openDemo']({})
    const { items } = await rt.handlers['sessions.list']({ workspaceId: demo.id, limit: 100 })
    const flaky = items.find((s) => s.title === 'Fix the flaky date test')
    expect(flaky).toBeDefined()
    const changes = await rt.handlers['changes.ofTurn']({ sessionId: flaky?.id ?? '', turn: 2 })
    expect(changes.items.map((c) => [c.path, c.op])).toEqual([
      ['src/dates.ts', 'modify'],
      ['test/dates.test.ts', 'modify'],
      ['src/dates.ts', 'modify']
    ])
    const plan = await rt.handlers['rewind.plan']({ sessionId: flaky?.id ?? '', turn: 2 })
    expect(plan.items.map((i) => [i.path, i.action, i.conflict])).toEqual([
      ['src/dates.ts', 'restore', null],
      ['test/dates.test.ts', 'restore', null]
    ])
    const applied = await rt.handlers['rewind.apply']({ sessionId: flaky?.id ?? '', turn: 2, token: plan.token, choices: [], defaultChoice: 'skip', confirmed: [], excluded: [] })
    const dates = join(demo.path, 'src/dates.ts')
    expect(readFileSync(dates, 'utf8')).toContain('Math.round((Date.now()')
    // Reopening the demo must not quietly put the files back.
    await rt.handlers['workspaces.openDemo']({})
    expect(readFileSync(dates, 'utf8')).toContain('Math.round((Date.now()')
    const undo = await rt.handlers['rewind.planUndo']({ rewindId: applied.rewindId })
    await rt.handlers['rewind.undo']({ rewindId: applied.rewindId, token: undo.token, choices: [], defaultChoice: 'skip', confirmed: [], excluded: [] })
    expect(readFileSync(dates, 'utf8')).toContain('startOfDay(now)')
  })
})
