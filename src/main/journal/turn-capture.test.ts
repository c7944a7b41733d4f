import { renameSync } from 'node:fs'
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

  it('records no deletion when the workspace folder is gone at the end of a turn, nor once it is back', async () => {
    ws = agentWorkspace({ 'a.txt': 'a\n', 'src/b.ts': 'export {}\n' })
    const capture = new TurnCapture(ws.rt.store, ws.journal)
    await capture.begin(ws.workspaceId)
    const scope = { sessionRowId: ws.rt.store.sessions.require(ws.writer.id).rowId, turn: ws.agent.turn() }
    renameSync(ws.root, `${ws.root}-moved`) // an unmounted disk, a folder moved away
    const failure = (await capture.end(ws.workspaceId, scope).catch((error: unknown) => error)) as Error & { code?: string }
    expect(failure.code).toBe('PATH_NOT_FOUND')
    expect(failure.message).toContain(ws.root)
    expect(ws.journal.repo.entriesOfScope(ws.journal.turnScope(ws.workspaceId, scope.sessionRowId, scope.turn))).toEqual([])
    renameSync(`${ws.root}-moved`, ws.root)
    const { changes } = await capture.end(ws.workspaceId, scope)
    expect(changes).toEqual([])
  })
})
