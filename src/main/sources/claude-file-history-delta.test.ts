import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ClaudeHome } from './testing/claude-home'
import { contractCaller, importTestbed } from './testing/import-testbed'

// Claude Code ≥ 2.1.220 adds a file to a turn's file history with a `file-history-delta` line
// (one file, naming the turn's snapshot) instead of restating the whole snapshot. Written here in
// the documented shape (docs/formats.md §2.1); no public real session holds one with its backups.

const { tempDir, runtime } = importTestbed('retrace-cc-delta-')

describe('Claude Code file-history-delta backups', () => {
  it('give the content before the turn, so an edit without its original is journaled and the turn rewinds', async () => {
    const workspace = tempDir()
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const session = home.session(workspace)
    session.prompt('start')
    session.say('ready')
    // The turn's snapshot tracks nothing yet; the delta backs notes.txt up before the edit.
    const turn = session.prompt('make beta louder')
    session.delta(turn, 'notes.txt', 'alpha\nbeta\n')
    // Without `originalFile` only the backup knows the content before (the older Edit result shape).
    session.edit('notes.txt', 'alpha\nbeta\n', 'beta', 'BETA', false)
    // A second delta for the same file in the same turn (a later version) does not replace the first.
    session.delta(turn, 'notes.txt', 'alpha\nBETA\n', 2)
    session.delta(turn, 'fresh.txt', null)
    session.write('fresh.txt', 'new\n', null)
    writeFileSync(join(workspace, 'notes.txt'), 'alpha\nBETA\n')
    writeFileSync(join(workspace, 'fresh.txt'), 'new\n')

    const rt = runtime({ claude: home.root })
    const call = contractCaller(rt)
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id })
    expect(report).toMatchObject({ sessions: 1, fileChanges: 2, skipped: [] })
    const [imported] = (await call('sessions.list', { workspaceId: opened.id })).items
    const sessionId = imported?.id ?? ''
    const changes = await call('changes.ofTurn', { sessionId, turn: 2 })
    expect(changes.items.map((c) => [c.path, c.op, c.observed]).sort()).toEqual([
      ['fresh.txt', 'create', 'tool'],
      ['notes.txt', 'modify', 'backup']
    ])

    // Claude Code purges its backups after 30 days: Retrace kept its own copy.
    rmSync(session.backupDir, { recursive: true })
    const plan = await call('rewind.plan', { sessionId, turn: 2 })
    expect(plan.items.map((i) => [i.path, i.action]).sort()).toEqual([
      ['fresh.txt', 'delete'],
      ['notes.txt', 'restore']
    ])
    await call('rewind.apply', { sessionId, turn: 2, token: plan.token, choices: [] })
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('alpha\nbeta\n')
  })
})
