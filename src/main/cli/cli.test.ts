import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempDir } from '../testing/temp-runtime'
import { runCli } from './main'

describe('retrace CLI', () => {
  let dataDir: ReturnType<typeof tempDir>
  let out: string[]
  let err: string[]
  const io = { out: (text: string) => out.push(text), err: (text: string) => err.push(text) }
  const run = (...args: string[]) => runCli([...args, '--data-dir', dataDir.path], io, {})

  beforeEach(() => {
    dataDir = tempDir()
    out = []
    err = []
  })
  afterEach(() => dataDir.dispose())

  /** The demo folder is a real workspace: create it the way a user would, through serve --demo's service. */
  async function demoPath(): Promise<string> {
    const { createRuntime } = await import('../runtime/runtime')
    const rt = createRuntime({ dataDir: dataDir.path, host: { binding: 'web' }, version: 'test' })
    const demo = await rt.handlers['workspaces.openDemo']({})
    rt.close()
    out = []
    return demo.path
  }

  it('prints usage for help and no command, and exits 2 on an unknown command or flag', async () => {
    expect(await run('help')).toBe(0)
    expect(out.join('\n')).toContain('retrace serve')
    expect(await run('frobnicate')).toBe(2)
    expect(err.join('\n')).toContain('Unknown command "frobnicate"')
    expect(await run('sessions', '--no-such-flag')).toBe(2)
    expect(await run('serve', '--port', 'eighty')).toBe(2)
    expect(err.at(-1)).toContain('--port must be a number')
  })

  it('lists a workspace\'s sessions as a table and as JSON', async () => {
    const path = await demoPath()
    expect(await run('sessions', path)).toBe(0)
    expect(out.join('\n')).toMatch(/Fix the flaky date test/)
    out = []
    expect(await run('sessions', path, '--json')).toBe(0)
    const parsed = JSON.parse(out.join('\n')) as { sessions: { title: string; kind: string }[] }
    expect(parsed.sessions.length).toBeGreaterThanOrEqual(5)
    expect(parsed.sessions.map((s) => s.kind)).toContain('branch')
  })

  it('shows a transcript, and searches across workspaces', async () => {
    const path = await demoPath()
    await run('sessions', path, '--json')
    const sessions = (JSON.parse(out.join('\n')) as { sessions: { id: string; title: string }[] }).sessions
    const flaky = sessions.find((s) => s.title === 'Fix the flaky date test')
    expect(flaky).toBeDefined()
    out = []
    expect(await run('show', flaky?.id ?? '')).toBe(0)
    const text = out.join('\n')
    expect(text).toContain('── Turn 1')
    expect(text).toContain('Tool call · Bash')
    expect(text).toContain('Compaction summary')
    out = []
    expect(await run('show', flaky?.id ?? '', '--context', '--json')).toBe(0)
    const context = JSON.parse(out.join('\n')) as { messages: { role: string }[] }
    expect(context.messages[0]?.role).toBe('compaction_summary')
    out = []
    expect(await run('search', 'flaky', '--workspace', path)).toBe(0)
    expect(out.join('\n')).toContain('[flaky]')
  })

  it('fails with a clear message and exit code 1 on a bad path or id', async () => {
    expect(await run('sessions', '/definitely/not/here')).toBe(1)
    expect(err.at(-1)).toBe('retrace: There is no folder at /definitely/not/here, and no agent history records it. Check the path, or choose another folder (`retrace workspaces` lists the recorded ones).')
    expect(await run('show', 'no-such-session')).toBe(1)
    expect(err.at(-1)).toContain('No session with id no-such-session')
    expect(await run('show')).toBe(2)
    expect(await run('search', '""')).toBe(1)
  })
})
