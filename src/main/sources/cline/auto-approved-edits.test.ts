import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { contractCaller, importTestbed } from '../testing/import-testbed'

const TASK = '1769100000000'
const RECORDED_CWD = '/home/dev/cards'

/**
 * Cline 3.5x with auto-approval (fixtures/cline/cline-auto-approve, PROVENANCE there): its writes
 * are `say: "tool"` rows naming workspace-relative paths, its native calls name absolute ones, and
 * each result carries the file as saved (`<final_file_content>`).
 */
describe('a Cline 3.5x task whose writes were auto-approved', () => {
  const { tempDir, runtime } = importTestbed('retrace-cline-auto-')

  function autoApprovedTask(options: { withUi: boolean } = { withUi: true }) {
    const home = tempDir()
    const workspace = tempDir()
    const source = join(FIXTURES, 'cline', 'cline-auto-approve', 'saoudrizwan.claude-dev', 'tasks', TASK)
    const target = join(home, '.config', 'Code', 'User', 'globalStorage', 'saoudrizwan.claude-dev', 'tasks', TASK)
    mkdirSync(target, { recursive: true })
    for (const name of readdirSync(source)) writeFileSync(join(target, name), readFileSync(join(source, name), 'utf8').replaceAll(RECORDED_CWD, workspace))
    if (!options.withUi) rmSync(join(target, 'ui_messages.json'))
    // The workspace as the agent left it (the formatter reflowed BeginTurn.cs after the write).
    writeFileSync(join(workspace, 'BeginTurn.cs'), 'public class BeginTurn : GameAction\n{\n}\n')
    writeFileSync(join(workspace, 'EndTurn.cs'), 'public class EndTurn\n{\n    int turn = 1;\n}\n')
    writeFileSync(join(workspace, 'NOTES.md'), '# Notes\n\nBeginTurn starts a turn.\n')
    return { home, workspace }
  }

  it('journals the saved content of write_to_file and replace_in_file, reports the overwrite whose earlier content is unknown, and rewinds', async () => {
    const { home, workspace } = autoApprovedTask()
    const call = contractCaller(runtime({}, { env: { HOME: home } }))
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['cline'] })
    // Three writes: BeginTurn.cs new (its say row), EndTurn.cs edited (read first, and its SEARCH/REPLACE
    // undone on the saved content gives the same), NOTES.md overwritten without being read.
    expect(report).toMatchObject({ sessions: 1, fileChanges: 2, skipped: [] })
    expect(report.changesNotJournaled.map((line) => line.reason)).toEqual([
      expect.stringMatching(/^file change not captured \(Cline keeps the file only as saved; its content before this write is not known\): .*NOTES\.md$/)
    ])
    const [session] = (await call('sessions.list', { workspaceId: opened.id, source: 'cline' })).items
    const sessionId = session?.id ?? ''
    const turn1 = await call('changes.ofTurn', { sessionId, turn: 1 })
    expect(turn1.items.map((change) => [change.path, change.op])).toEqual([['BeginTurn.cs', 'create'], ['EndTurn.cs', 'modify']])

    const plan = await call('rewind.plan', { sessionId, turn: 1 })
    await call('rewind.apply', { sessionId, turn: 1, token: plan.token, choices: [] })
    expect(existsSync(join(workspace, 'BeginTurn.cs'))).toBe(false)
    expect(readFileSync(join(workspace, 'EndTurn.cs'), 'utf8')).toBe('public class EndTurn\n{\n    int turn = 0;\n}\n')
    // Not captured, so not touched.
    expect(readFileSync(join(workspace, 'NOTES.md'), 'utf8')).toBe('# Notes\n\nBeginTurn starts a turn.\n')
  })

  it('counts usage from the assistant messages\' metrics when there is no ui_messages.json', async () => {
    const { home, workspace } = autoApprovedTask({ withUi: false })
    const call = contractCaller(runtime({}, { env: { HOME: home } }))
    const opened = await call('workspaces.open', { path: workspace })
    await call('imports.run', { workspaceId: opened.id, sources: ['cline'] })
    const [session] = (await call('sessions.list', { workspaceId: opened.id, source: 'cline' })).items
    // Five answers' metrics.tokens: prompt 5 × 10, completion 120+300+200+150+80, cached (Cline adds
    // cache writes and reads together) 9000+12000+13000+14000+15000; no cost given.
    expect(session?.usage).toMatchObject({ inputTokens: 50, outputTokens: 850, cacheReadTokens: 63000, cacheWriteTokens: 0 })
    const messages = (await call('transcript.page', { sessionId: session?.id ?? '', limit: 100 })).items
    expect(messages.find((message) => message.role === 'reasoning')?.usage).toMatchObject({ inputTokens: 10, outputTokens: 120, cacheReadTokens: 9000 })
  })
})
