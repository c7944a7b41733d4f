import { afterEach, describe, expect, it } from 'vitest'
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract'
import { agentWorkspace, type AgentWorkspace } from '../journal/testing/agent-workspace'
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
