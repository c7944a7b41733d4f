import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Blame } from '../../shared/contract'
import { agentWorkspace, type AgentWorkspace } from '../journal/testing/agent-workspace'
import { runCli } from './main'

describe('retrace blame', () => {
  let ws: AgentWorkspace
  let out: string[]
  let err: string[]
  const io = { out: (text: string) => out.push(text), err: (text: string) => err.push(text) }
  const run = (...args: string[]) => runCli([...args, '--data-dir', ws.rt.store.dataDir], io, {})

  function setup(): void {
    ws = agentWorkspace({ 'notes.md': 'one\ntwo\n' })
    ws.agent.turn('rewrite the second line')
    ws.agent.write('notes.md', 'one\n2\nthree\n')
    ws.user.write('notes.md', 'one\n2\nthree\nfour\n')
    out = []
    err = []
  }
  afterEach(() => ws.dispose())

  it('prints each line with its session, turn and date, like git blame, and a legend with the prompt', async () => {
    setup()
    expect(await run('blame', 'notes.md', '--workspace', ws.root)).toBe(0)
    const text = out.join('\n')
    const short = ws.writer.id.slice(0, 8)
    const lines = text.split('\n')
    expect(lines[0]).toMatch(/^earlier\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+1\) one$/)
    expect(lines[1]).toMatch(new RegExp(`^${short} t1\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+2\\) 2$`))
    expect(lines[2]).toMatch(new RegExp(`^${short} t1 .* 3\\) three$`))
    expect(lines[3]).toMatch(/^changed\s+since\s+4\) four$/)
    expect(text).toContain(`${short} t1: native · “agent” · rewrite the second line`)
    expect(text).toContain('the file on disk differs from its last journaled version')
  })

  it('finds the workspace holding an absolute path, and prints JSON', async () => {
    setup()
    expect(await run('blame', join(ws.root, 'notes.md'), '--json')).toBe(0)
    const blame = JSON.parse(out.join('\n')) as Blame
    expect(blame.lines).toEqual(['one', '2', 'three', 'four'])
    expect(blame.runs.map((r) => [r.start, r.count, blame.origins[r.origin]?.kind])).toEqual([
      [1, 1, 'earlier'],
      [2, 2, 'turn'],
      [4, 1, 'disk']
    ])
    expect(blame.origins[blame.runs[1]?.origin ?? -1]).toMatchObject({ sessionId: ws.writer.id, turn: 1, prompt: 'rewrite the second line' })
  })

  it('says why when it cannot blame: no history, or a binary file', async () => {
    setup()
    ws.user.write('other.txt', 'x\n')
    expect(await run('blame', 'other.txt', '--workspace', ws.root)).toBe(1)
    expect(err.join('\n')).toContain('no recorded change to other.txt')
    ws.agent.write('pic.bin', Buffer.from([0, 1, 2]))
    expect(await run('blame', 'pic.bin', '--workspace', ws.root)).toBe(1)
    expect(err.join('\n')).toContain('pic.bin is a binary file')
    expect(await run('blame', '--workspace', ws.root)).toBe(2)
  })
})
