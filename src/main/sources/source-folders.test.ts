import { cpSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ClaudeHome, FIXTURES } from './testing/claude-home'
import { contractCaller, importTestbed } from './testing/import-testbed'

describe('folders added to a workspace as a source\'s history', () => {
  const { tempDir, runtime } = importTestbed('retrace-source-folders-')

  it('imports a CianaParrot deployment kept elsewhere into the workspace, lists it, and stops on removal (keeping what came)', async () => {
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: tempDir() })
    const deployment = join(tempDir(), 'parrot')
    cpSync(join(FIXTURES, 'cianaparrot/deployment'), deployment, { recursive: true })

    const added = await call('workspaces.addSourceFolder', { workspaceId: workspace.id, source: 'cianaparrot', path: deployment })
    expect(added.report.sessions).toBe(7)
    expect((await call('workspaces.sourceFolders', { workspaceId: workspace.id })).items).toEqual([{ id: added.folder.id, source: 'cianaparrot', path: deployment, addedAt: expect.any(Number) as number }])
    expect((await call('sessions.list', { workspaceId: workspace.id })).items).toHaveLength(7)
    // Its agent state shows with the workspace's.
    expect((await call('workspaces.agentState', { workspaceId: workspace.id })).sources.map((source) => source.location)).toEqual([deployment])
    // Imported again with the workspace: nothing new.
    expect((await call('imports.run', { workspaceId: workspace.id })).sessions).toBe(0)

    expect(await call('workspaces.removeSourceFolder', { workspaceId: workspace.id, folderId: added.folder.id })).toEqual({ removed: true })
    expect((await call('workspaces.sourceFolders', { workspaceId: workspace.id })).items).toEqual([])
    expect((await call('sessions.list', { workspaceId: workspace.id })).items).toHaveLength(7)
  })

  it('takes every session of a Claude Code home added as a folder, whatever working directory it recorded', async () => {
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: tempDir() })
    const home = new ClaudeHome(join(tempDir(), 'claude-copy'))
    const session = home.session('/home/someone-else/project')
    session.prompt('From another machine')
    session.say('Hello from there.')
    const added = await call('workspaces.addSourceFolder', { workspaceId: workspace.id, source: 'claude-code', path: home.root })
    expect(added.report.sessions).toBe(1)
    expect((await call('sessions.list', { workspaceId: workspace.id })).items.map((session) => session.title)).toEqual(['From another machine'])
  })

  it('says where each source looks, and refuses an unknown source or a missing folder', async () => {
    const call = contractCaller(runtime({}))
    const sources = (await call('sources.list', {})).items
    expect(sources.map((source) => source.name)).toEqual(expect.arrayContaining(['claude-code', 'codex', 'cianaparrot', 'langgraph']))
    for (const source of sources) expect(source.looksIn.length).toBeGreaterThan(10)
    const workspace = await call('workspaces.open', { path: tempDir() })
    await expect(call('workspaces.addSourceFolder', { workspaceId: workspace.id, source: 'nobody', path: tempDir() })).rejects.toMatchObject({ code: 'VALIDATION' })
    const missing = join(tempDir(), 'gone')
    await expect(call('workspaces.addSourceFolder', { workspaceId: workspace.id, source: 'cianaparrot', path: missing })).rejects.toMatchObject({ code: 'PATH_NOT_FOUND' })
    mkdirSync(missing)
    expect((await call('workspaces.addSourceFolder', { workspaceId: workspace.id, source: 'cianaparrot', path: missing })).report.sessions).toBe(0)
  })
})
