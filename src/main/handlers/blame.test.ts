import { afterEach, describe, expect, it } from 'vitest'
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract'
import { agentWorkspace, type AgentWorkspace } from '../journal/testing/agent-workspace'
import { createDispatcher } from '../rpc/dispatcher'

describe('files.blame through the contract', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  function setup() {
    ws = agentWorkspace({ 'src/app.ts': 'export const a = 1\n' })
    ws.agent.turn('add b')
    ws.agent.write('src/app.ts', 'export const a = 1\nexport const b = 2\n')
    const dispatch = createDispatcher<null>({ handlers: ws.rt.handlers, authorize: () => null })
    return async <K extends MethodName>(method: K, input: MethodInput<K>): Promise<MethodOutput<K>> => {
      const result = await dispatch(method, input, null)
      if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code })
      return result.data as MethodOutput<K>
    }
  }

  it('blames by path or by the path id other file methods give, as runs of origins', async () => {
    const call = setup()
    const byPath = await call('files.blame', { workspaceId: ws.workspaceId, path: 'src/app.ts' })
    expect(byPath.runs).toEqual([
      { start: 1, count: 1, origin: 0 },
      { start: 2, count: 1, origin: 1 }
    ])
    expect(byPath.origins.map((o) => [o.kind, o.turn, o.prompt])).toEqual([
      ['earlier', 1, null],
      ['turn', 1, 'add b']
    ])
    const pathId = (await call('changes.ofTurn', { sessionId: ws.writer.id, turn: 1 })).items[0]?.pathId ?? ''
    expect(await call('files.blame', { workspaceId: ws.workspaceId, pathId })).toEqual(byPath)
  })

  it('refuses a path and a path id together, a path leaving the workspace, and an unknown workspace', async () => {
    const call = setup()
    await expect(call('files.blame', { workspaceId: ws.workspaceId, path: 'a', pathId: 'YQ==' })).rejects.toMatchObject({ code: 'VALIDATION' })
    await expect(call('files.blame', { workspaceId: ws.workspaceId })).rejects.toMatchObject({ code: 'VALIDATION' })
    await expect(call('files.blame', { workspaceId: ws.workspaceId, path: '../etc/passwd' })).rejects.toMatchObject({ code: 'VALIDATION' })
    await expect(call('files.blame', { workspaceId: 9999, path: 'src/app.ts' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
