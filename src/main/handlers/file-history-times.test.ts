import { describe, expect, it } from 'vitest'
import { contractCaller, importTestbed } from '../sources/testing/import-testbed'
import { copiedHistories, RECORDED, SPOTTER_SESSION } from '../sources/testing/copied-histories'

const { tempDir, runtime } = importTestbed('retrace-history-times-')

describe("a file's history of changes read from an agent's files", () => {
  it("dates each change by its turn, as the agent recorded it, never by the import", async () => {
    // The real spotter session (fixtures/claude-code/spotter), recorded on 2026-02-12.
    const rt = runtime(copiedHistories(tempDir()))
    const call = contractCaller(rt)
    const importedFrom = Date.now()
    const workspace = await call('workspaces.open', { path: RECORDED.spotter })
    await call('imports.run', { workspaceId: workspace.id })
    const session = rt.store.sessions.bySourceId(workspace.id, 'claude-code', SPOTTER_SESSION)
    const sessionId = session?.id ?? ''
    const detail = await call('sessions.get', { sessionId })

    const turnStarts = new Map<number, number | null>()
    const transcript = await call('transcript.page', { sessionId, limit: 500 })
    for (const message of transcript.items) if (!turnStarts.has(message.turn)) turnStarts.set(message.turn, message.createdAt)

    let seen = 0
    for (const checkpoint of detail.checkpoints) {
      for (const change of (await call('changes.ofTurn', { sessionId, turn: checkpoint.turn })).items) {
        const history = await call('files.history', { workspaceId: workspace.id, pathId: change.pathId })
        for (const item of history.items) {
          expect(item.createdAt).toBeLessThan(importedFrom)
          expect(item.createdAt).toBe(turnStarts.get(item.turn ?? -1))
          seen += 1
        }
      }
    }
    expect(seen).toBeGreaterThan(10)
    expect(new Date(turnStarts.get(1) ?? 0).toISOString().slice(0, 10)).toBe('2026-02-12')
  })
})
