import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { agentWorkspace, type AgentWorkspace } from '../journal/testing/agent-workspace'
import { runCli } from './main'

describe('retrace restore: one file back to a recorded version', () => {
  let ws: AgentWorkspace
  let out: string[]
  let err: string[]
  const io = { out: (text: string) => out.push(text), err: (text: string) => err.push(text) }
  const run = (...args: string[]) => runCli([...args, '--data-dir', ws.rt.store.dataDir], io, {})

  function setup(): void {
    ws = agentWorkspace({ 'notes.md': 'one\n', 'other.txt': 'untouched\n' })
    ws.agent.turn('first')
    ws.agent.write('notes.md', 'two\n')
    ws.agent.turn('second')
    ws.agent.write('notes.md', 'three\n')
    ws.agent.write('other.txt', 'changed\n')
    out = []
    err = []
  }
  afterEach(() => ws.dispose())

  it('lists the recorded changes, numbered oldest first, and writes nothing', async () => {
    setup()
    expect(await run('restore', 'notes.md', '--workspace', ws.root)).toBe(0)
    const listing = out.join('\n')
    expect(listing).toContain('Recorded changes to notes.md, oldest first. Restore the file as one left it with: retrace restore notes.md --change N')
    expect(listing).toMatch(new RegExp(`\\n1\\s+\\S+ \\S+\\s+${ws.writer.id.slice(0, 8)}\\s+t1\\s+modify\\s+4 B`))
    expect(listing).toMatch(new RegExp(`\\n2\\s+\\S+ \\S+\\s+${ws.writer.id.slice(0, 8)}\\s+t2\\s+modify\\s+6 B`))
    out = []
    expect(await run('restore', 'notes.md', '--workspace', ws.root, '--json')).toBe(0)
    const json = JSON.parse(out.join('\n')) as { path: string; changes: { change: number; turn: number }[] }
    expect(json.changes.map((c) => [c.change, c.turn])).toEqual([
      [1, 1],
      [2, 2]
    ])
    expect(ws.text('notes.md')).toBe('three\n')
  })

  it('previews with --dry-run, restores with --yes (only that file), and `retrace undo` puts it back', async () => {
    setup()
    // FILE as a path in the workspace folder: found relative to it.
    expect(await run('restore', join(ws.root, 'notes.md'), '--change', '1', '--workspace', ws.root, '--dry-run')).toBe(0)
    expect(out.join('\n')).toContain('Restore notes.md to the file after change 1 (turn 1 of “agent”).')
    expect(out.join('\n')).toMatch(/restore\s+file\s+notes\.md/)
    expect(ws.text('notes.md')).toBe('three\n')
    out = []
    expect(await run('restore', 'notes.md', '--change', '1', '--workspace', ws.root)).toBe(2) // not a terminal, no --yes
    expect(err.join('\n')).toContain('Pass --yes')
    expect(ws.text('notes.md')).toBe('three\n')
    out = []
    expect(await run('restore', 'notes.md', '--change', '1', '--workspace', ws.root, '--yes', '--json')).toBe(0)
    const result = JSON.parse(out.join('\n')) as { rewindId: string; changed: { path: string }[] }
    expect(result.changed.map((c) => c.path)).toEqual(['notes.md'])
    expect(ws.text('notes.md')).toBe('two\n')
    expect(ws.text('other.txt')).toBe('changed\n')
    out = []
    expect(await run('undo', result.rewindId, '--yes')).toBe(0)
    expect(ws.text('notes.md')).toBe('three\n')
  })

  it('skips a conflict by default (the file changed since the journal saw it), overwrites only when asked', async () => {
    setup()
    ws.user.write('notes.md', 'my own edit\n')
    expect(await run('restore', 'notes.md', '--change', '1', '--workspace', ws.root, '--yes')).toBe(0)
    const text = out.join('\n')
    expect(text).toContain('1 conflict(s) will be skipped')
    expect(text).toMatch(/0 changed, 1 skipped, 0 refused/)
    expect(ws.text('notes.md')).toBe('my own edit\n')
    out = []
    expect(await run('restore', 'notes.md', '--change', '1', '--workspace', ws.root, '--yes', '--on-conflict', 'overwrite', '--json')).toBe(0)
    const { rewindId } = JSON.parse(out.join('\n')) as { rewindId: string }
    expect(ws.text('notes.md')).toBe('two\n')
    // The undo puts back the user's edit the overwrite replaced.
    expect(await run('undo', rewindId, '--yes')).toBe(0)
    expect(ws.text('notes.md')).toBe('my own edit\n')
  })

  it('restores the file as it was before a turn of a session, in that session’s workspace', async () => {
    setup()
    expect(await run('restore', 'notes.md', '--session', ws.writer.id.slice(0, 8), '--turn', '2', '--yes')).toBe(0)
    expect(out.join('\n')).toContain(`Restore notes.md to the file before turn 2 of session ${ws.writer.id.slice(0, 8)}.`)
    expect(ws.text('notes.md')).toBe('two\n')
    expect(await run('restore', 'notes.md', '--session', ws.writer.id, '--turn', '1', '--yes')).toBe(0)
    expect(ws.text('notes.md')).toBe('one\n')
  })

  it('refuses what names no version: a change out of range, both ways at once, --turn alone, a file with no history', async () => {
    setup()
    expect(await run('restore', 'notes.md', '--change', '9', '--workspace', ws.root, '--yes')).toBe(1)
    expect(err.join('\n')).toContain('notes.md has 2 recorded changes; there is no change 9.')
    expect(await run('restore', 'notes.md', '--change', '1', '--session', ws.writer.id, '--turn', '1', '--yes')).toBe(2)
    expect(await run('restore', 'notes.md', '--turn', '1', '--workspace', ws.root, '--yes')).toBe(2)
    expect(err.join('\n')).toContain('--session ID and --turn N go together')
    expect(await run('restore', 'notes.md', '--change', 'x', '--workspace', ws.root)).toBe(2)
    err = []
    expect(await run('restore', 'never.txt', '--workspace', ws.root)).toBe(1)
    expect(err.join('\n')).toContain('Retrace recorded no change to never.txt in this workspace.')
    expect(await run('restore')).toBe(2)
    expect(ws.text('notes.md')).toBe('three\n')
  })
})
