import { afterEach, describe, expect, it } from 'vitest'
import { agentWorkspace, type AgentWorkspace } from './testing/agent-workspace'
import { TurnCapture } from './turn-capture'

describe('a turn captured by workspace scans', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  it('defers the store’s idle WAL checkpoints while a turn is captured, before and after', async () => {
    ws = agentWorkspace({ 'a.txt': 'a before\n' })
    const capture = new TurnCapture(ws.rt.store, ws.journal)
    const seen: boolean[] = []
    const controls = { onProgress: () => void seen.push(ws.rt.store.walCheckpoints.deferred) }
    await capture.begin(ws.workspaceId, controls)
    ws.user.write('a.txt', 'a after\n')
    await capture.end(ws.workspaceId, { sessionRowId: ws.rt.store.sessions.require(ws.writer.id).rowId, turn: ws.agent.turn() }, controls)
    expect(seen.length).toBeGreaterThan(1)
    expect(seen.every(Boolean)).toBe(true)
    expect(ws.rt.store.walCheckpoints.deferred).toBe(false)
  })
})
