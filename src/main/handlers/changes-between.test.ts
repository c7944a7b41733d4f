import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract'
import { agentWorkspace, type AgentWorkspace } from '../journal/testing/agent-workspace'
import type { SessionWriter } from '../transcripts/session-writer'
import { createDispatcher } from '../rpc/dispatcher'

describe('changes.between: the files that differ between two checkpoints of a session', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  function setup() {
    ws = agentWorkspace({ 'src/app.ts': 'export const a = 1\n', 'README.md': '# app\n' })
    ws.agent.turn('add b')
    ws.agent.write('src/app.ts', 'export const a = 1\nexport const b = 2\n')
    ws.agent.write('src/b.ts', 'export default 2\n')
    ws.agent.turn('drop the readme, take b back out')
    ws.agent.remove('README.md')
    ws.agent.write('src/app.ts', 'export const a = 1\n')
    const dispatch = createDispatcher<null>({ handlers: ws.rt.handlers, authorize: () => null })
    return async <K extends MethodName>(method: K, input: MethodInput<K>): Promise<MethodOutput<K>> => {
      const result = await dispatch(method, input, null)
      if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code })
      return result.data as MethodOutput<K>
    }
  }

  it('lists each file once with its net change, leaving out a file changed and changed back', async () => {
    const call = setup()
    const sessionId = ws.writer.id
    const across = await call('changes.between', { sessionId, fromTurn: 1, toTurn: 3 })
    // src/app.ts got a line in turn 1 and lost it in turn 2: no net change.
    expect(across.items.map((item) => [item.path, item.before === null, item.after === null, item.added, item.removed])).toEqual([
      ['README.md', false, true, 0, 1],
      ['src/b.ts', true, false, 1, 0]
    ])
    const first = await call('changes.between', { sessionId, fromTurn: 1, toTurn: 2 })
    expect(first.items.map((item) => [item.path, item.added, item.removed])).toEqual([
      ['src/app.ts', 1, 0],
      ['src/b.ts', 1, 0]
    ])
    // Each file's diff is files.diff with the same turns.
    const diff = await call('files.diff', { sessionId, pathId: across.items[0]?.pathId ?? '', fromTurn: 1, toTurn: 3 })
    expect(diff.patch).toBe('@@ -1,1 +0,0 @@\n-# app')
    await expect(call('changes.between', { sessionId, fromTurn: 2, toTurn: 2 })).rejects.toMatchObject({ code: 'VALIDATION' })
  })
})

describe('changes.between across sessions: a branch and its parent at the same turn', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  function caller() {
    const dispatch = createDispatcher<null>({ handlers: ws.rt.handlers, authorize: () => null })
    return async <K extends MethodName>(method: K, input: MethodInput<K>): Promise<MethodOutput<K>> => {
      const result = await dispatch(method, input, null)
      if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code })
      return result.data as MethodOutput<K>
    }
  }

  /** Another session's agent: changes the disk like a tool, recorded in that session's current turn. */
  function agentOf(writer: SessionWriter) {
    const file = (path: string) => join(ws.root, path)
    const record = (path: string, after: string | null) => {
      const before = existsSync(file(path)) ? readFileSync(file(path)) : null
      if (after === null) rmSync(file(path))
      else {
        mkdirSync(dirname(file(path)), { recursive: true })
        writeFileSync(file(path), after)
      }
      ws.journal.recordToolChange({ workspaceId: ws.workspaceId, sessionRowId: writer.rowId, turn: writer.turn }, { path, before, after: after === null ? null : Buffer.from(after) })
    }
    return {
      turn: (prompt = 'go on') => writer.append({ role: 'user', content: prompt }),
      write: (path: string, content: string) => record(path, content),
      remove: (path: string) => record(path, null)
    }
  }

  /** Parent: 3 turns; a branch forked (with its files) at turn 2 goes another way for 2 turns. */
  async function setup() {
    ws = agentWorkspace({ 'src/app.ts': 'a\n', 'README.md': '# app\n' })
    const call = caller()
    ws.agent.turn('one')
    ws.agent.write('src/app.ts', 'a\nb\n')
    ws.agent.turn('two')
    ws.agent.write('src/parent-only.ts', 'p\n')
    ws.agent.write('README.md', '# app, parent\n')
    ws.agent.turn('three')
    ws.agent.write('src/app.ts', 'a\nb\nc\n')
    ws.writer.close()
    const parentId = ws.writer.id
    const fork = await call('sessions.fork', { sessionId: parentId, turn: 2, withFiles: true, title: 'other way' })
    expect(ws.text('src/parent-only.ts')).toBeNull() // the fork put the files back to before turn 2
    const branch = ws.rt.recorder.resume(fork.sessionId)
    const other = agentOf(branch)
    other.turn('two, another way')
    other.write('src/app.ts', 'a\nb\nbranch\n')
    other.write('src/branch-only.ts', 'x\n')
    other.turn('three, another way')
    other.remove('README.md')
    branch.close()
    return { call, parentId, branchId: fork.sessionId }
  }

  const rows = (items: MethodOutput<'changes.between'>['items']) => items.map((item) => [item.path, item.before === null ? null : 'v', item.after === null ? null : 'v', item.added, item.removed])

  it('lists the files each side left differently at the same turn, and each one’s diff', async () => {
    const { call, parentId, branchId } = await setup()
    // After turn 2 (before turn 3) on both sides: the parent's second turn against the branch's.
    const afterTwo = await call('changes.between', { sessionId: parentId, fromTurn: 3, toSessionId: branchId, toTurn: 3 })
    expect(rows(afterTwo.items)).toEqual([
      ['README.md', 'v', 'v', 1, 1], // the parent's edit; the branch kept what it branched from
      ['src/app.ts', 'v', 'v', 1, 0],
      ['src/branch-only.ts', null, 'v', 1, 0],
      ['src/parent-only.ts', 'v', null, 0, 1]
    ])
    const readme = await call('files.diff', { sessionId: parentId, pathId: afterTwo.items[0]?.pathId ?? '', fromTurn: 3, toSessionId: branchId, toTurn: 3 })
    expect(readme.patch).toBe('@@ -1,1 +1,1 @@\n-# app, parent\n+# app')

    // After the last turn of both (turn 3): the parent's third turn and the branch's deletion show.
    const atEnd = await call('changes.between', { sessionId: parentId, fromTurn: 4, toSessionId: branchId, toTurn: 4 })
    expect(rows(atEnd.items)).toEqual([
      ['README.md', 'v', null, 0, 1],
      ['src/app.ts', 'v', 'v', 1, 1],
      ['src/branch-only.ts', null, 'v', 1, 0],
      ['src/parent-only.ts', 'v', null, 0, 1]
    ])
    const app = await call('files.diff', { sessionId: parentId, pathId: atEnd.items[1]?.pathId ?? '', fromTurn: 4, toSessionId: branchId, toTurn: 4 })
    expect(app.patch).toBe('@@ -1,3 +1,3 @@\n a\n b\n-c\n+branch')

    // Before the turn they part at, they are the same files.
    expect((await call('changes.between', { sessionId: parentId, fromTurn: 2, toSessionId: branchId, toTurn: 2 })).items).toEqual([])
    // The same session as toSessionId is the one-session comparison.
    expect(rows((await call('changes.between', { sessionId: parentId, fromTurn: 1, toSessionId: parentId, toTurn: 2 })).items)).toEqual([['src/app.ts', 'v', 'v', 1, 0]])
  })

  it('compares a sub-agent with its parent after the turn that started it: only what the sub-agent did', async () => {
    ws = agentWorkspace({ 'src/app.ts': 'a\n' })
    const call = caller()
    ws.agent.turn('one')
    ws.agent.write('src/app.ts', 'a\nb\n')
    const sub = ws.writer.startSubAgent({ title: 'helper' })
    const helper = agentOf(sub)
    helper.turn('write the helper')
    helper.write('src/helper.ts', 'h\n')
    sub.close()
    ws.writer.close()
    const items = (await call('changes.between', { sessionId: ws.writer.id, fromTurn: 2, toSessionId: sub.id, toTurn: 2 })).items
    expect(rows(items)).toEqual([['src/helper.ts', null, 'v', 1, 0]])
  })

  it('refuses a checkpoint a session does not have, and a session of another workspace', async () => {
    const { call, parentId, branchId } = await setup()
    await expect(call('changes.between', { sessionId: parentId, fromTurn: 5, toSessionId: branchId, toTurn: 3 })).rejects.toMatchObject({ code: 'VALIDATION' })
    await expect(call('files.diff', { sessionId: parentId, pathId: Buffer.from('README.md').toString('base64'), fromTurn: 3, toSessionId: branchId, toTurn: 9 })).rejects.toMatchObject({ code: 'VALIDATION' })
    await expect(call('files.diff', { sessionId: parentId, pathId: Buffer.from('never.txt').toString('base64'), fromTurn: 3, toSessionId: branchId, toTurn: 3 })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const elsewhere = ws.rt.store.workspaces.open(join(ws.root, '..'), 'elsewhere')
    const stranger = ws.rt.recorder.startSession({ workspaceId: elsewhere, title: 'stranger' })
    await expect(call('changes.between', { sessionId: parentId, fromTurn: 3, toSessionId: stranger.id, toTurn: 1 })).rejects.toMatchObject({ code: 'VALIDATION' })
  })
})
