import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contractCaller, importTestbed } from '../testing/import-testbed'
import { folderListing } from '../testing/folder-listing'
import { projectHash } from './discover'

/**
 * An older Gemini CLI session with checkpointing on (built from its writer: chatRecordingService,
 * checkpointUtils, gitService): a `replace` and a `write_file` on files that existed, recorded
 * without `FileDiff`; before each, Gemini committed the project into its shadow repository and
 * wrote a checkpoint naming the commit.
 */
function olderSession(workspace: string) {
  const call = (id: string, name: string, args: Record<string, unknown>, output: string) => ({
    id,
    name,
    args,
    result: [{ functionResponse: { id, name, response: { output } } }],
    status: 'success',
    timestamp: '2026-01-01T00:00:10.000Z'
  })
  const replaceArgs = { file_path: join(workspace, 'notes.txt'), old_string: 'beta', new_string: 'BETA' }
  const writeArgs = { file_path: 'todo.md', content: '- new list\n' }
  const session = {
    sessionId: 'old-1',
    projectHash: projectHash(workspace),
    startTime: '2026-01-01T00:00:00.000Z',
    lastUpdated: '2026-01-01T00:00:20.000Z',
    messages: [
      { id: 'u1', timestamp: '2026-01-01T00:00:01.000Z', type: 'user', content: 'shout beta, redo the list' },
      {
        id: 'g1',
        timestamp: '2026-01-01T00:00:09.000Z',
        type: 'gemini',
        content: '',
        toolCalls: [call('replace-1', 'replace', replaceArgs, 'Successfully modified file (1 replacements).'), call('write_file-2', 'write_file', writeArgs, 'Successfully overwrote file: todo.md.')],
        model: 'gemini-2.5-pro'
      },
      { id: 'g2', timestamp: '2026-01-01T00:00:20.000Z', type: 'gemini', content: 'Done.', model: 'gemini-2.5-pro' }
    ]
  }
  return { session, replaceArgs, writeArgs }
}

function git(gitDir: string, workTree: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=gemini', '-c', 'user.email=gemini@example.com', '--git-dir', gitDir, '--work-tree', workTree, ...args], { encoding: 'utf8' }).trim()
}

describe('Gemini CLI checkpoints and their shadow git repository', () => {
  const { tempDir, runtime } = importTestbed('retrace-gemini-shadow-')

  function setUp(withCheckpoints: boolean) {
    const workspace = tempDir()
    const home = tempDir()
    const id = projectHash(workspace)
    const project = join(home, '.gemini', 'tmp', id)
    writeFileSync(join(workspace, 'notes.txt'), 'alpha\nbeta\n')
    writeFileSync(join(workspace, 'todo.md'), '- old list\n')
    const { session, replaceArgs, writeArgs } = olderSession(workspace)
    mkdirSync(join(project, 'chats'), { recursive: true })
    writeFileSync(join(project, 'chats', 'session-2026-01-01T00-00-old1.json'), JSON.stringify(session, null, 2))
    if (withCheckpoints) {
      const gitDir = join(home, '.gemini', 'history', id, '.git')
      mkdirSync(gitDir, { recursive: true })
      git(gitDir, workspace, 'init', '-q')
      git(gitDir, workspace, 'add', '-A')
      git(gitDir, workspace, 'commit', '-q', '-m', 'Snapshot for replace')
      const commitHash = git(gitDir, workspace, 'rev-parse', 'HEAD')
      mkdirSync(join(project, 'checkpoints'))
      const checkpoint = (name: string, args: Record<string, unknown>) => JSON.stringify({ history: [], clientHistory: [], toolCall: { name, args }, commitHash, messageId: 'old-1########0' })
      writeFileSync(join(project, 'checkpoints', '2026-01-01T00-00-05_000Z-notes.txt-replace.json'), checkpoint('replace', replaceArgs))
      writeFileSync(join(project, 'checkpoints', '2026-01-01T00-00-06_000Z-todo.md-write_file.json'), checkpoint('write_file', writeArgs))
    }
    // What the agent left on disk.
    writeFileSync(join(workspace, 'notes.txt'), 'alpha\nBETA\n')
    writeFileSync(join(workspace, 'todo.md'), '- new list\n')
    const call = contractCaller(runtime({}, { env: { GEMINI_CLI_HOME: home } }))
    return { workspace, home, call }
  }

  it('takes the before-content of edits without FileDiff from the checkpoint commit, read-only, so the turn rewinds', async () => {
    const { workspace, home, call } = setUp(true)
    const before = folderListing(home)
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['gemini-cli'] })
    expect(report).toMatchObject({ sessions: 1, fileChanges: 2, skipped: [] })
    // Not even an index or a lock appeared in the shadow repository.
    expect(folderListing(home)).toEqual(before)
    const [session] = (await call('sessions.list', { workspaceId: opened.id, source: 'gemini-cli' })).items
    const sessionId = session?.id ?? ''
    const changes = (await call('changes.ofTurn', { sessionId, turn: 1 })).items.map((c) => [c.path, c.op, c.added, c.removed])
    expect(changes.sort()).toEqual([
      ['notes.txt', 'modify', 1, 1],
      ['todo.md', 'modify', 1, 1]
    ])
    const plan = await call('rewind.plan', { sessionId, turn: 1 })
    const rewound = await call('rewind.apply', { sessionId, turn: 1, token: plan.token, choices: [] })
    expect([readFileSync(join(workspace, 'notes.txt'), 'utf8'), readFileSync(join(workspace, 'todo.md'), 'utf8')]).toEqual(['alpha\nbeta\n', '- old list\n'])
    const undoPlan = await call('rewind.planUndo', { rewindId: rewound.rewindId })
    await call('rewind.undo', { rewindId: rewound.rewindId, token: undoPlan.token, choices: [] })
    expect([readFileSync(join(workspace, 'notes.txt'), 'utf8'), readFileSync(join(workspace, 'todo.md'), 'utf8')]).toEqual(['alpha\nBETA\n', '- new list\n'])
  })

  it('without checkpoints, the same edits are reported as not captured', async () => {
    const { workspace, call } = setUp(false)
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['gemini-cli'] })
    expect(report.fileChanges).toBe(0)
    expect(report.skipped).toEqual([])
    expect(report.changesNotJournaled.map((s) => s.reason)).toEqual([
      `file change not captured (its earlier content is unknown): ${join(workspace, 'notes.txt')}`,
      'file change not captured (its earlier content is unknown): todo.md'
    ])
  })
})
