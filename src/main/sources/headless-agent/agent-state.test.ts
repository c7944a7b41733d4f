import { describe, expect, it } from 'vitest'
import { contractCaller, importTestbed } from '../testing/import-testbed'
import { copyHome, HEADLESS_HOME } from './testing/headless-fixture'

describe('the headless agent in the Agent state panel', () => {
  const { tempDir, runtime } = importTestbed('retrace-headless-state-')

  it('shows its memory for the home opened as a workspace, and for a home added as a folder', async () => {
    const call = contractCaller(runtime({}))
    const opened = await call('workspaces.open', { path: copyHome(HEADLESS_HOME, tempDir()) })
    const [memory] = (await call('workspaces.agentState', { workspaceId: opened.id })).sources
    expect(memory).toMatchObject({ source: 'headless-agent', problems: [] })
    expect(memory?.sections[0]?.rows).toHaveLength(6)

    const project = await call('workspaces.open', { path: tempDir() })
    expect((await call('workspaces.agentState', { workspaceId: project.id })).sources).toEqual([])
    await call('workspaces.addSourceFolder', { workspaceId: project.id, source: 'headless-agent', path: copyHome(HEADLESS_HOME, tempDir()) })
    expect((await call('workspaces.agentState', { workspaceId: project.id })).sources.map((source) => source.source)).toEqual(['headless-agent'])
  })
})
