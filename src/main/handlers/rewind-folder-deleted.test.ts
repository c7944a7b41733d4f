import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contractCaller, importTestbed } from '../sources/testing/import-testbed'
import { ClaudeHome, FIXTURES } from '../sources/testing/claude-home'

// missing-folder.test.ts covers histories whose folder was never here; this is the folder that
// was here, was rewound in, and was deleted while Retrace kept its history: every rewind call
// says so in words (PATH_NOT_FOUND), none escapes as "failed unexpectedly: ENOENT".
const { tempDir, runtime } = importTestbed('retrace-folder-deleted-')

describe('a rewind in a workspace folder deleted after its import', () => {
  it('is refused in words, the rewind, its preview and the undo of an earlier one alike', async () => {
    const folder = join(tempDir(), 'private')
    mkdirSync(folder)
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    // A real Claude Code session (fixtures/claude-code/codemie), recorded in this folder.
    const project = home.addFixtureProject(join(FIXTURES, 'claude-code/codemie/-tmp-private'), folder)
    for (const name of readdirSync(project).filter((entry) => entry.endsWith('.jsonl'))) {
      writeFileSync(join(project, name), readFileSync(join(project, name), 'utf8').replaceAll('/tmp/private', folder))
    }
    const call = contractCaller(runtime({ claude: home.root }))
    const workspace = await call('workspaces.open', { path: folder })
    await call('imports.run', { workspaceId: workspace.id })
    const [session] = (await call('sessions.list', { workspaceId: workspace.id })).items.filter((s) => s.kind === 'main')
    const sessionId = session?.id ?? ''
    const plan = await call('rewind.plan', { sessionId, turn: 2 })
    expect(plan.items.map((item) => [item.path, item.action])).toEqual([['hello.py', 'create']])
    const applied = await call('rewind.apply', { sessionId, turn: 2, token: plan.token, defaultChoice: 'overwrite' })

    rmSync(folder, { recursive: true })
    const words = `The folder of this workspace, ${folder}, is not on this computer`
    for (const attempt of [
      () => call('rewind.plan', { sessionId, turn: 2 }),
      () => call('rewind.apply', { sessionId, turn: 2, token: plan.token }),
      () => call('rewind.planUndo', { rewindId: applied.rewindId })
    ]) {
      await expect(attempt()).rejects.toMatchObject({ code: 'PATH_NOT_FOUND' })
      await expect(attempt()).rejects.toThrow(words)
    }
    // The history stays browsable.
    expect((await call('changes.ofTurn', { sessionId, turn: 2 })).items.length).toBeGreaterThan(0)
  })
})
