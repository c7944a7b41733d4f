import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { contractCaller, importTestbed } from '../sources/testing/import-testbed'
import { copiedHistories, RECORDED, SPOTTER_SESSION, spotterFile } from '../sources/testing/copied-histories'

const { tempDir, runtime } = importTestbed('retrace-forget-')

describe('hiding and forgetting a workspace (R67, R68)', () => {
  it('forgets a workspace and its sessions for the count confirmed, the agents\' files kept; a hidden one is not imported back', async () => {
    const roots = copiedHistories(tempDir())
    const rt = runtime(roots)
    const call = contractCaller(rt)
    const workspace = await call('workspaces.open', { path: RECORDED.spotter })
    await call('imports.run', { workspaceId: workspace.id })
    const listed = (await call('workspaces.listAll', {})).items.find((item) => item.path === RECORDED.spotter)
    // The /compact agent is a warm-up: counted in what goes, not in the list.
    expect(listed).toMatchObject({ workspaceId: workspace.id, sessionCount: 2, hidden: false })
    expect(listed?.costUsd).toBeGreaterThan(0)

    const plan = await call('workspaces.forgetPlan', { workspaceId: workspace.id })
    expect(plan).toEqual({ workspaceId: workspace.id, path: RECORDED.spotter, sessions: 3, warmups: 1, hidden: false })
    await expect(call('workspaces.forget', { workspaceId: workspace.id, sessions: 2 })).rejects.toMatchObject({ code: 'CONFLICT' })
    expect(rt.store.workspaces.get(workspace.id)).toBeDefined()

    expect(await call('workspaces.setHidden', { path: `${RECORDED.spotter}/`, hidden: true })).toEqual({ changed: true })
    expect(await call('workspaces.forget', { workspaceId: workspace.id, sessions: 3 })).toEqual({ removedSessions: 3 })
    expect(rt.store.workspaces.getByPath(RECORDED.spotter)).toBeUndefined()
    expect(rt.store.sessions.matching(SPOTTER_SESSION)).toEqual([])
    expect(existsSync(spotterFile(roots.claude, `${SPOTTER_SESSION}.jsonl`))).toBe(true)
    // Still recorded by the history: listed, hidden, not imported.
    expect((await call('workspaces.listAll', {})).items.find((item) => item.path === RECORDED.spotter)).toMatchObject({ workspaceId: null, hidden: true, sessionCount: 3 })

    await rt.imports.importAll()
    expect(rt.store.workspaces.getByPath(RECORDED.spotter)).toBeUndefined()
    expect(await call('workspaces.setHidden', { path: RECORDED.spotter, hidden: false })).toEqual({ changed: true })
    await rt.imports.importAll()
    expect(rt.store.workspaces.getByPath(RECORDED.spotter)).toBeDefined()
  })
})
