import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ClaudeHome } from './testing/claude-home'
import { contractCaller, importTestbed } from './testing/import-testbed'
import { databaseOf } from '../store/raw-database'

const { tempDir, runtime: testRuntime } = importTestbed('retrace-cc-rewind-')

/**
 * A Claude Code session that edited a real workspace: turn 1 creates todo.md, turn 2 edits the
 * existing notes.txt (an older-style Edit result without `originalFile`, so only the
 * file-history backup knows the content before), turn 3 runs a shell command.
 */
function agentSession() {
  const workspace = tempDir()
  writeFileSync(join(workspace, 'notes.txt'), 'alpha\nbeta\n')
  const home = new ClaudeHome(join(tempDir(), 'claude'))
  const session = home.session(workspace)
  session.prompt('write a todo list')
  session.write('todo.md', '- louder beta\n', null)
  session.prompt('make beta louder', { 'notes.txt': 'alpha\nbeta\n', 'todo.md': '- louder beta\n' })
  session.edit('notes.txt', 'alpha\nbeta\n', 'beta', 'BETA', false)
  session.prompt('clean up', { 'notes.txt': 'alpha\nbeta\n', 'todo.md': '- louder beta\n' })
  session.bash('rm -f scratch.log')
  // What the agent left on disk.
  writeFileSync(join(workspace, 'todo.md'), '- louder beta\n')
  writeFileSync(join(workspace, 'notes.txt'), 'alpha\nBETA\n')
  const rt = testRuntime({ claude: home.root })
  return { workspace, home, session, call: contractCaller(rt), runtime: rt }
}

describe('Claude Code file history as rewindable checkpoints', () => {
  it('journals each turn\'s edits, keeps the backups after Claude Code purges them, and rewinds with undo', async () => {
    const { workspace, session, call, runtime } = agentSession()
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id })
    expect(report).toMatchObject({ sessions: 1, fileChanges: 2, skipped: [] })
    const [imported] = (await call('sessions.list', { workspaceId: opened.id })).items
    const sessionId = imported?.id ?? ''

    const turn1 = await call('changes.ofTurn', { sessionId, turn: 1 })
    expect(turn1.items.map((c) => [c.path, c.op, c.observed])).toEqual([['todo.md', 'create', 'tool']])
    const turn2 = await call('changes.ofTurn', { sessionId, turn: 2 })
    // The Edit result had no originalFile: its before-content came from the backup, the after from the patch.
    expect(turn2.items.map((c) => [c.path, c.op, c.observed, c.added, c.removed])).toEqual([['notes.txt', 'modify', 'backup', 1, 1]])
    const detail = await call('sessions.get', { sessionId })
    expect(detail.sourceSessionId).toBe(session.sessionId) // Claude Code's own id, shown beside Retrace's
    // The file ends in turn 3: the import closes it so it is a checkpoint with its shell command counted.
    expect(detail.checkpoints.find((c) => c.turn === 3)?.uncapturedCommands).toBe(1)
    expect(databaseOf(runtime.store).prepare('SELECT import_state FROM import_files').get()).toBeDefined()

    // Claude Code's 30-day cleanup removes its own copies; Retrace's blob store kept them.
    rmSync(session.backupDir, { recursive: true })

    const plan = await call('rewind.plan', { sessionId, turn: 2 })
    expect(plan.items.map((i) => [i.path, i.action, i.conflict, i.refused])).toEqual([['notes.txt', 'restore', null, null]])
    const rewound = await call('rewind.apply', { sessionId, turn: 2, token: plan.token, choices: [] })
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('alpha\nbeta\n')

    const undoPlan = await call('rewind.planUndo', { rewindId: rewound.rewindId })
    await call('rewind.undo', { rewindId: rewound.rewindId, token: undoPlan.token, choices: [] })
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('alpha\nBETA\n')

    const toStart = await call('rewind.plan', { sessionId, turn: 1 })
    expect(toStart.items.map((i) => [i.path, i.action]).sort()).toEqual([
      ['notes.txt', 'restore'],
      ['todo.md', 'delete']
    ])
    await call('rewind.apply', { sessionId, turn: 1, token: toStart.token, choices: [] })
    expect(existsSync(join(workspace, 'todo.md'))).toBe(false)
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('alpha\nbeta\n')
  })

  it('counts shell commands of a closed turn as changes no scan saw', async () => {
    const { workspace, session, call, runtime } = agentSession()
    session.prompt('next')
    const opened = await call('workspaces.open', { path: workspace })
    await call('imports.run', { workspaceId: opened.id })
    const [imported] = (await call('sessions.list', { workspaceId: opened.id })).items
    const detail = await call('sessions.get', { sessionId: imported?.id ?? '' })
    expect(detail.checkpoints.map((c) => [c.turn, c.uncapturedCommands])).toEqual([
      [1, 0],
      [2, 0],
      [3, 1],
      [4, 0]
    ])
    // Turns 3 and 4 changed no journaled file (a shell command's changes are not captured): nothing to rewind from there.
    expect(detail.lastChangedTurn).toBe(2)
    const { runCli } = await import('../cli/main')
    const out: string[] = []
    const code = await runCli(['changes', detail.id, '--data-dir', runtime.store.dataDir], { out: (text) => out.push(text), err: () => undefined }, {})
    expect(code).toBe(0)
    expect(out.join('\n')).toContain('Turn 3 ran 1 shell command whose file changes were not captured.')
  })

  it('shows a conflict instead of overwriting a file changed after the agent', async () => {
    const { workspace, call } = agentSession()
    const opened = await call('workspaces.open', { path: workspace })
    await call('imports.run', { workspaceId: opened.id })
    const [imported] = (await call('sessions.list', { workspaceId: opened.id })).items
    writeFileSync(join(workspace, 'notes.txt'), 'alpha\nBETA\nmy own line\n')
    const plan = await call('rewind.plan', { sessionId: imported?.id ?? '', turn: 2 })
    expect(plan.items[0]?.conflict).toBeTruthy()
    await call('rewind.apply', { sessionId: imported?.id ?? '', turn: 2, token: plan.token, choices: [] })
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('alpha\nBETA\nmy own line\n') // skipped by default
  })
})

describe('following an open workspace live', () => {
  it('brings a running agent\'s new lines into the open session', async () => {
    const { workspace, home, session } = agentSession()
    const live = testRuntime({ claude: home.root }, { followImports: true })
    await contractCaller(live)('workspaces.open', { path: workspace })
    const messages = () => databaseOf(live.store).prepare('SELECT count(*) AS n FROM messages').get() as { n: number }
    await waitFor(() => messages().n > 0)
    const before = messages().n
    session.say('a line written while Retrace watches')
    await waitFor(() => messages().n === before + 1)
    const text = databaseOf(live.store).prepare('SELECT content FROM messages ORDER BY id DESC LIMIT 1').get() as { content: string }
    expect(text.content).toBe('a line written while Retrace watches')
  })
})

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now()
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting for the import')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
