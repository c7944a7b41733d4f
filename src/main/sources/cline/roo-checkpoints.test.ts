import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { folderListing } from '../testing/folder-listing'
import { contractCaller, importTestbed } from '../testing/import-testbed'

const PARENT = '019c8a10-5e2b-7a31-9f00-3c1d2e4f5a61'
const CHILD = '019c8a12-77d0-7b42-8e11-4d2e3f506b72'
const RECORDED_CWD = '/home/dev/roo-app'

describe('Roo Code tasks: checkpoints per task, sub-tasks and a restored checkpoint', () => {
  const { tempDir, runtime } = importTestbed('retrace-roo-checkpoints-')

  /** The writer-built tasks in Roo Code's global storage of a temporary HOME, run in a temporary (empty) workspace. */
  function rooTasks() {
    const home = tempDir()
    const workspace = tempDir()
    const storage = join(home, '.config', 'Code', 'User', 'globalStorage', 'rooveterinaryinc.roo-cline')
    const source = join(FIXTURES, 'cline', 'roo-writer', 'rooveterinaryinc.roo-cline', 'tasks')
    for (const task of [PARENT, CHILD]) {
      mkdirSync(join(storage, 'tasks', task), { recursive: true })
      for (const name of readdirSync(join(source, task))) {
        writeFileSync(join(storage, 'tasks', task, name), readFileSync(join(source, task, name), 'utf8').replaceAll(RECORDED_CWD, workspace))
      }
    }
    return { home, workspace, storage }
  }

  /**
   * The parent's shadow repository as Roo's ShadowCheckpointService makes it
   * (`tasks/<id>/checkpoints/.git`, core.worktree the workspace): the initial commit of the empty
   * workspace, checkpoint 1 before the write (nothing changed yet), checkpoint 2 when the user
   * answered (hello.txt and the command's build.log), checkpoint 3 before apply_diff; then the
   * workspace as the tasks left it. The commit ids go into the copy's ui_messages.json.
   */
  function shadowRepository(storage: string, workspace: string): string[] {
    const gitDir = join(storage, 'tasks', PARENT, 'checkpoints', '.git')
    mkdirSync(gitDir, { recursive: true })
    const env = { ...process.env, GIT_AUTHOR_NAME: 'Roo Code', GIT_AUTHOR_EMAIL: 'noreply@example.com', GIT_COMMITTER_NAME: 'Roo Code', GIT_COMMITTER_EMAIL: 'noreply@example.com' }
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', gitDir, '--work-tree', workspace, ...args], { env, encoding: 'utf8' }).trim()
    git('init', '--quiet', '--template=')
    git('config', 'core.worktree', workspace)
    git('config', 'commit.gpgSign', 'false')
    const commit = (message: string) => {
      git('add', '-A')
      git('commit', '--quiet', '--allow-empty', '-m', message)
      return git('rev-parse', 'HEAD')
    }
    const hashes = [commit('initial commit'), commit(`Task: ${PARENT}, Time: 1771500002000`)]
    writeFileSync(join(workspace, 'hello.txt'), 'hello\n')
    writeFileSync(join(workspace, 'build.log'), 'built\n')
    hashes.push(commit(`Task: ${PARENT}, Time: 1771500020050`), commit(`Task: ${PARENT}, Time: 1771500023000`))
    writeFileSync(join(workspace, 'hello.txt'), 'hello\nworld\n')
    mkdirSync(join(workspace, 'docs'))
    writeFileSync(join(workspace, 'docs', 'README.md'), 'hello.txt greets the world.\n')
    const ui = join(storage, 'tasks', PARENT, 'ui_messages.json')
    writeFileSync(ui, hashes.reduce((out, hash, index) => out.replaceAll(`{{CHECKPOINT_${index}}}`, hash), readFileSync(ui, 'utf8')))
    return hashes
  }

  it('gives each turn the files its commands changed, from the task\'s shadow repository, and rewinds them', async () => {
    const { home, workspace, storage } = rooTasks()
    shadowRepository(storage, workspace)
    const before = folderListing(storage)
    const call = contractCaller(runtime({}, { env: { HOME: home } }))
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['cline'] })
    // hello.txt twice and docs/README.md from the transcripts; build.log from the checkpoints.
    expect(report).toMatchObject({ files: 2, sessions: 2, fileChanges: 4, skipped: [] })
    const sessions = (await call('sessions.list', { workspaceId: opened.id, source: 'cline' })).items
    const parent = sessions.find((session) => session.kind !== 'sub-agent')
    const sessionId = parent?.id ?? ''
    expect(parent).toMatchObject({ title: 'Create hello.txt saying hello, then log the build into build.log (Roo Code)', model: 'claude-sonnet-4-5', turnCount: 2 })
    const turn1 = await call('changes.ofTurn', { sessionId, turn: 1 })
    expect(turn1.items.map((change) => [change.path, change.op]).sort()).toEqual([['build.log', 'create'], ['hello.txt', 'create']])
    const turn2 = await call('changes.ofTurn', { sessionId, turn: 2 })
    expect(turn2.items.map((change) => [change.path, change.op, change.added, change.removed])).toEqual([['hello.txt', 'modify', 1, 0]])

    const plan = await call('rewind.plan', { sessionId, turn: 1 })
    const rewound = await call('rewind.apply', { sessionId, turn: 1, token: plan.token, choices: [] })
    expect(existsSync(join(workspace, 'hello.txt'))).toBe(false)
    expect(existsSync(join(workspace, 'build.log'))).toBe(false)
    const undoPlan = await call('rewind.planUndo', { rewindId: rewound.rewindId })
    await call('rewind.undo', { rewindId: rewound.rewindId, token: undoPlan.token, choices: [] })
    expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toBe('hello\nworld\n')
    expect(readFileSync(join(workspace, 'build.log'), 'utf8')).toBe('built\n')
    // Nothing written in the storage, the shadow repository included (no index, no lock, no object).
    expect(folderListing(storage)).toEqual(before)
  })

  it('shows the child task below its parent\'s new_task call, and the checkpoint it restored', async () => {
    const { home, workspace, storage } = rooTasks()
    const before = folderListing(storage)
    const call = contractCaller(runtime({}, { env: { HOME: home } }))
    const opened = await call('workspaces.open', { path: workspace })
    expect(await call('imports.run', { workspaceId: opened.id, sources: ['cline'] })).toMatchObject({ sessions: 2 })
    const sessions = (await call('sessions.list', { workspaceId: opened.id, source: 'cline' })).items
    const parent = sessions.find((session) => session.kind !== 'sub-agent')
    const child = sessions.find((session) => session.kind === 'sub-agent')
    expect(child).toMatchObject({ parentId: parent?.id, title: 'Write docs/README.md describing hello.txt in one paragraph. (Roo Code)', turnCount: 2 })
    // Two requests kept plus the deleted ones' row is not counted: 3+4+5 in.
    expect(child?.usage).toMatchObject({ inputTokens: 12, outputTokens: 320 })
    const messages = (await call('transcript.page', { sessionId: child?.id ?? '', limit: 50 })).items
    const restored = messages.filter((message) => message.role === 'system' && message.content.startsWith('Roo Code restored checkpoint'))
    expect(restored.map((message) => [message.turn, message.content])).toEqual([
      [2, 'Roo Code restored checkpoint a1f3c5e7092b4d6f8e0a1c3e5f7092b4d6f8e0a1 here: it deleted the messages after it and their requests (125 tokens, $0.0066).']
    ])
    const next = messages[messages.indexOf(restored[0] as (typeof messages)[number]) + 1]
    expect(next).toMatchObject({ role: 'tool_call', toolName: 'write_to_file' })
    expect(folderListing(storage)).toEqual(before)
  })

  it('finds the parent of a task older than history_item.json in VS Code\'s state database, read-only', async () => {
    const { home, workspace, storage } = rooTasks()
    rmSync(join(storage, 'tasks', CHILD, 'history_item.json'))
    rmSync(join(storage, 'tasks', PARENT, 'history_item.json'))
    // VS Code's global state: ItemTable, one JSON value per extension id as published.
    const db = new Database(join(dirname(storage), 'state.vscdb'))
    db.exec('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)')
    const taskHistory = [{ id: CHILD, parentTaskId: PARENT, rootTaskId: PARENT, number: 2, ts: 1771500040500, task: 'docs' }, { id: PARENT, number: 1, ts: 1771500043100, task: 'hello' }]
    db.prepare('INSERT INTO ItemTable (key, value) VALUES (?, ?)').run('RooVeterinaryInc.roo-cline', JSON.stringify({ taskHistory, mode: 'code' }))
    db.prepare('INSERT INTO ItemTable (key, value) VALUES (?, ?)').run('saoudrizwan.claude-dev', JSON.stringify({ taskHistory: [{ id: CHILD, parentTaskId: 'elsewhere' }] }))
    db.close()
    const before = folderListing(dirname(storage))
    const call = contractCaller(runtime({}, { env: { HOME: home } }))
    const opened = await call('workspaces.open', { path: workspace })
    expect(await call('imports.run', { workspaceId: opened.id, sources: ['cline'] })).toMatchObject({ sessions: 2, skipped: [] })
    const sessions = (await call('sessions.list', { workspaceId: opened.id, source: 'cline' })).items
    const parent = sessions.find((session) => session.kind !== 'sub-agent')
    expect(sessions.find((session) => session.kind === 'sub-agent')).toMatchObject({ parentId: parent?.id, missingParent: null })
    expect(folderListing(dirname(storage))).toEqual(before)
  })

  it('reports checkpoint commits the task\'s repository does not have, and keeps the transcript\'s edits', async () => {
    const { home, workspace, storage } = rooTasks()
    execFileSync('git', ['init', '--quiet', join(storage, 'tasks', PARENT, 'checkpoints')])
    const ui = join(storage, 'tasks', PARENT, 'ui_messages.json')
    writeFileSync(ui, readFileSync(ui, 'utf8').replace(/\{\{CHECKPOINT_(\d)\}\}/g, (_, n: string) => n.repeat(40)))
    const call = contractCaller(runtime({}, { env: { HOME: home } }))
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['cline'] })
    expect(report).toMatchObject({ sessions: 2, fileChanges: 3 })
    expect(report.skipped.map((skip) => skip.reason)).toEqual([
      expect.stringMatching(new RegExp(`^${PARENT}/turn 1: checkpoint 1{40} or 3{40} is not in .*; its changes outside the transcript are not captured$`))
    ])
  })
})
