import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ClaudeHome, FIXTURES } from '../sources/testing/claude-home'
import { contractCaller, importTestbed } from '../sources/testing/import-testbed'

const { tempDir, runtime } = importTestbed('retrace-tree-coverage-')

describe('the graph card’s rewind coverage', () => {
  it('gives each tree node the coverage the session list gives, on a real session with changes not recorded', async () => {
    // Claude Code 2.0.55 (fixtures/claude-code/claude-code-log-turns, PROVENANCE.txt): it wrote
    // its plan file in ~/.claude/plans, outside the workspace, three times.
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    home.addFixtureProject(join(FIXTURES, 'claude-code/claude-code-log-turns/-src-deep-manifest'), '/src/deep-manifest')
    const rt = runtime({ claude: home.root })
    const call = contractCaller(rt)
    const workspaceId = rt.store.workspaces.open('/src/deep-manifest', 'deep-manifest')
    await call('imports.run', { workspaceId })
    const listed = (await call('sessions.list', { workspaceId, limit: 50 })).items
    const { nodes } = await call('sessions.tree', { workspaceId })
    expect(nodes.map((node) => [node.id, node.coverage])).toEqual(listed.map((session) => [session.id, session.coverage]).sort((a, b) => nodes.findIndex((n) => n.id === a[0]) - nodes.findIndex((n) => n.id === b[0])))
    const main = nodes.find((node) => node.kind === 'main')
    expect(main?.coverage.notCaptured).toBe(3)
    expect(main?.coverage.recorded).toBeGreaterThan(0)
  })
})
