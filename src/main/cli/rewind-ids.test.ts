import { afterEach, describe, expect, it } from 'vitest'
import { agentWorkspace, type AgentWorkspace } from '../journal/testing/agent-workspace'
import { runCli } from './main'

describe('rewind ids on the command line: `retrace rewinds` lists them, `retrace undo` takes their start (R40)', () => {
  let ws: AgentWorkspace
  let out: string[]
  let err: string[]
  const io = { out: (text: string) => out.push(text), err: (text: string) => err.push(text) }
  const run = (...args: string[]) => runCli([...args, '--data-dir', ws.rt.store.dataDir], io, {})

  /** A session whose turn 1 wrote notes.md and todo.txt, rewound once to before it. */
  async function rewound(): Promise<string> {
    ws = agentWorkspace({ 'notes.md': 'one\n' })
    ws.agent.turn()
    ws.agent.write('notes.md', 'one\ntwo\n')
    ws.agent.write('todo.txt', 'ship it\n')
    out = []
    err = []
    expect(await run('rewind', ws.writer.id, '--turn', '1', '--yes', '--json')).toBe(0)
    const { rewindId } = JSON.parse(out.join('\n')) as { rewindId: string }
    out = []
    return rewindId
  }
  afterEach(() => ws.dispose())

  it('lists a session\'s rewinds with their ids, what each did and how to undo one', async () => {
    const rewindId = await rewound()
    expect(await run('rewinds', ws.writer.id.slice(0, 8))).toBe(0)
    const text = out.join('\n')
    expect(text).toContain(rewindId)
    expect(text).toMatch(/applied\s+to before turn 1\s+2 files/)
    expect(text).toContain('retrace undo <rewind-id>')
    out = []
    expect(await run('rewinds', ws.writer.id, '--json')).toBe(0)
    expect((JSON.parse(out.join('\n')) as { id: string }[]).map((rewind) => rewind.id)).toEqual([rewindId])
  })

  it('undoes a rewind named by the first characters of its id', async () => {
    const rewindId = await rewound()
    expect(ws.text('todo.txt')).toBeNull()
    expect(await run('undo', rewindId.slice(0, 8), '--yes')).toBe(0)
    expect(ws.text('todo.txt')).toBe('ship it\n')
  })

  it('says in a sentence when no rewind has that id, instead of "Invalid input for rewind.planUndo"', async () => {
    await rewound()
    expect(await run('undo', 'zzzz', '--yes')).toBe(1)
    expect(err.at(-1)).toBe(`retrace: No rewind with id zzzz. \`retrace rewinds <session-id>\` lists a session's rewinds with their ids; the first characters of an id work too.`)
    expect(err.join('\n')).not.toContain('Invalid input')
  })

  it('lists the rewinds an id\'s start could mean, and undoes none', async () => {
    const first = await rewound()
    const recorded = ws.rt.store.rewinds.get(first)
    // Another rewind whose id starts the same way, as two ids may.
    const twin = `${first.slice(0, 8)}-0000-4000-8000-000000000000`
    ws.rt.store.rewinds.insert({ id: twin, workspaceId: recorded?.workspaceId ?? 0, sessionRowId: recorded?.sessionRowId ?? null, targetTurn: 1, undoOf: null, beforeScopeId: recorded?.beforeScopeId ?? 0 })
    ws.rt.store.rewinds.finish(twin, 'failed')
    expect(await run('undo', first.slice(0, 6), '--yes')).toBe(1)
    expect(err.at(-1)).toContain(`"${first.slice(0, 6)}" could mean 2 rewinds; give the id of one:`)
    expect(err.at(-1)).toContain(first)
    expect(err.at(-1)).toContain(twin)
    expect(ws.text('todo.txt')).toBeNull()
  })
})
