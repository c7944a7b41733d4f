import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { folderListing } from '../testing/folder-listing'
import { contractCaller, importTestbed } from '../testing/import-testbed'

// A session outside git with the per-tool rewind snapshots of Copilot CLI's REWIND_V2 option (built
// from its writer, see PROVENANCE.txt). Its index holds the first turn only: the last turn is
// written there once another prompt is sent.
const FIXTURE = join(FIXTURES, 'copilot-cli', 'writer-1.0-rewind', 'session-state')
const SESSION = '3f9d2b71-8c4e-4a06-b5d1-7e2a9c0f4b68'
const RECORDED_CWD = '/home/dev/plain-app'
const NOTES_BEFORE = 'milk\neggs\n'
const NOTES_AFTER_TURN_1 = 'milk\neggs\nbread\n'
const NOTES_AFTER = 'milk\neggs\nbread\ncoffee\n'
const PLAN = 'shop on Friday\n'

describe('Copilot CLI per-tool rewind snapshots (rewind-file-snapshots)', () => {
  const { tempDir, runtime } = importTestbed('retrace-copilot-file-snapshots-')

  it('gives the first edit of a file older than the session its preimage; the turns rewind and undo', async () => {
    const workspace = tempDir()
    writeFileSync(join(workspace, 'notes.txt'), NOTES_AFTER)
    writeFileSync(join(workspace, 'plan.txt'), PLAN)
    const home = join(tempDir(), 'copilot-home')
    cpSync(FIXTURE, join(home, 'session-state'), { recursive: true })
    for (const name of ['events.jsonl', 'workspace.yaml', 'rewind-file-snapshots/index.json']) {
      const path = join(home, 'session-state', SESSION, name)
      writeFileSync(path, readFileSync(path, 'utf8').replaceAll(RECORDED_CWD, workspace))
    }
    const call = contractCaller(runtime({}, { env: { COPILOT_HOME: home } }))
    const opened = await call('workspaces.open', { path: workspace })
    const before = folderListing(home)
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['copilot-cli'] })
    expect(report).toMatchObject({ files: 1, sessions: 1, fileChanges: 3, skipped: [] })
    expect(folderListing(home)).toEqual(before)

    const [session] = (await call('sessions.list', { workspaceId: opened.id, source: 'copilot-cli' })).items
    const sessionId = session?.id ?? ''
    const turn1 = await call('changes.ofTurn', { sessionId, turn: 1 })
    expect(turn1.items.map((c) => [c.path, c.op]).sort()).toEqual([
      ['notes.txt', 'modify'],
      ['plan.txt', 'create']
    ])
    // The last turn is not in the index yet: its edit follows from what turn 1 journaled.
    const turn2 = await call('changes.ofTurn', { sessionId, turn: 2 })
    expect(turn2.items.map((c) => [c.path, c.op, c.added, c.removed])).toEqual([['notes.txt', 'modify', 1, 0]])

    const plan = await call('rewind.plan', { sessionId, turn: 1 })
    expect(plan.items.map((i) => [i.path, i.action, i.conflict]).sort()).toEqual([
      ['notes.txt', 'restore', null],
      ['plan.txt', 'delete', null]
    ])
    const rewound = await call('rewind.apply', { sessionId, turn: 1, token: plan.token, choices: [] })
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe(NOTES_BEFORE)
    expect(existsSync(join(workspace, 'plan.txt'))).toBe(false)
    const undo = await call('rewind.planUndo', { rewindId: rewound.rewindId })
    await call('rewind.undo', { rewindId: rewound.rewindId, token: undo.token, choices: [] })
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe(NOTES_AFTER)
    expect(readFileSync(join(workspace, 'plan.txt'), 'utf8')).toBe(PLAN)

    const toTurn2 = await call('rewind.plan', { sessionId, turn: 2 })
    await call('rewind.apply', { sessionId, turn: 2, token: toTurn2.token, choices: [] })
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe(NOTES_AFTER_TURN_1)
  })
})
