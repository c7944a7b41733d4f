import { afterEach, describe, expect, it } from 'vitest'
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract'
import { agentWorkspace, type AgentWorkspace } from '../journal/testing/agent-workspace'
import { createDispatcher } from '../rpc/dispatcher'

describe('journal and rewind through the contract', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  function setup() {
    ws = agentWorkspace({ 'src/app.ts': 'export const a = 1\n', 'README.md': '# app\n' })
    ws.agent.turn('add b')
    ws.agent.write('src/app.ts', 'export const a = 1\nexport const b = 2\n')
    ws.agent.write('src/b.ts', 'export default 2\n')
    ws.agent.turn('drop the readme')
    ws.agent.remove('README.md')
    const dispatch = createDispatcher<null>({ handlers: ws.rt.handlers, authorize: () => null })
    return async <K extends MethodName>(method: K, input: MethodInput<K>): Promise<MethodOutput<K>> => {
      const result = await dispatch(method, input, null)
      if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code })
      return result.data as MethodOutput<K>
    }
  }

  it('lists a turn\'s changes with line counts, diffs between checkpoints, and a path\'s history', async () => {
    const call = setup()
    const sessionId = ws.writer.id
    const turn1 = await call('changes.ofTurn', { sessionId, turn: 1 })
    expect(turn1.items.map((c) => [c.path, c.op, c.added, c.removed])).toEqual([
      ['src/app.ts', 'modify', 1, 0],
      ['src/b.ts', 'create', 1, 0]
    ])
    const pathId = turn1.items[0]?.pathId ?? ''
    const diff = await call('files.diff', { sessionId, pathId, fromTurn: 1, toTurn: 3 })
    expect(diff.patch).toContain('+export const b = 2')
    const unchanged = await call('files.diff', { sessionId, pathId, fromTurn: 2, toTurn: 3 })
    expect(unchanged).toMatchObject({ added: 0, removed: 0, patch: '' })
    const history = await call('files.history', { workspaceId: ws.workspaceId, pathId })
    expect(history.items.map((h) => [h.sessionTitle, h.turn, h.op])).toEqual([['agent', 1, 'modify']])
    const version = await call('files.version', { workspaceId: ws.workspaceId, hash: history.items[0]?.before?.hash ?? '' })
    expect(version.text).toBe('export const a = 1\n')
    await expect(call('files.version', { workspaceId: ws.workspaceId, hash: '0'.repeat(64) })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('previews, applies with the preview token, lists and undoes a rewind', async () => {
    const call = setup()
    const sessionId = ws.writer.id
    const plan = await call('rewind.plan', { sessionId, turn: 1 })
    expect(plan.items.map((i) => [i.path, i.action, i.conflict])).toEqual([
      ['src/app.ts', 'restore', null],
      ['src/b.ts', 'delete', null],
      ['README.md', 'create', null]
    ])
    const applied = await call('rewind.apply', { sessionId, turn: 1, token: plan.token })
    expect(applied.changed).toHaveLength(3)
    expect(ws.text('README.md')).toBe('# app\n')
    expect(ws.text('src/b.ts')).toBeNull()
    expect((await call('rewind.list', { sessionId })).items.map((r) => [r.status, r.targetTurn, r.changed])).toEqual([['applied', 1, 3]])

    const undoPlan = await call('rewind.planUndo', { rewindId: applied.rewindId })
    await call('rewind.undo', { rewindId: applied.rewindId, token: undoPlan.token })
    expect(ws.text('src/b.ts')).toBe('export default 2\n')
    expect(ws.text('README.md')).toBeNull()
    expect((await call('rewind.list', { sessionId })).items.map((r) => r.status)).toEqual(['undone', 'applied'])
  })

  it('refuses an apply whose preview is stale, and turn numbers out of range', async () => {
    const call = setup()
    const plan = await call('rewind.plan', { sessionId: ws.writer.id, turn: 2 })
    ws.user.write('README.md', 'recreated by hand\n')
    await expect(call('rewind.apply', { sessionId: ws.writer.id, turn: 2, token: plan.token })).rejects.toMatchObject({ code: 'CONFLICT' })
    await expect(call('rewind.plan', { sessionId: ws.writer.id, turn: 9 })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(call('rewind.plan', { sessionId: ws.writer.id, turn: 0 })).rejects.toMatchObject({ code: 'VALIDATION' })
  })
})
