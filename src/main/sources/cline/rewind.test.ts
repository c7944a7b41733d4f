import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { folderListing } from '../testing/folder-listing'
import { contractCaller, importTestbed } from '../testing/import-testbed'
import { hashWorkingDir } from './shadow-git'

const TASK = '1764791864800'
const RECORDED_CWD = '/home/dev/todo-app'

describe('a Cline 3 task (native tool calls) as rewindable turns', () => {
  const { tempDir, runtime } = importTestbed('retrace-cline-rewind-')

  /** The writer-built task, in VS Code's global storage of a temporary HOME, run in a temporary workspace. */
  function clineTask(checkpoints: string[] = []) {
    const home = tempDir()
    const workspace = tempDir()
    const storage = join(home, '.config', 'Code', 'User', 'globalStorage', 'saoudrizwan.claude-dev')
    const source = join(FIXTURES, 'cline', 'cline-writer', 'saoudrizwan.claude-dev', 'tasks', TASK)
    const target = join(storage, 'tasks', TASK)
    mkdirSync(target, { recursive: true })
    for (const name of readdirSync(source)) {
      const text = readFileSync(join(source, name), 'utf8').replaceAll(RECORDED_CWD, workspace)
      writeFileSync(join(target, name), checkpoints.reduce((out, hash, index) => out.replaceAll(`{{CHECKPOINT_${index}}}`, hash), text))
    }
    // A task of another workspace, which this workspace does not show.
    cpSync(join(FIXTURES, 'cline', 'roo-code', 'rooveterinaryinc.roo-cline', 'tasks'), join(storage, 'tasks'), { recursive: true })
    writeFileSync(join(workspace, 'notes.md'), '# Todo\n- milk\n- eggs\n- bread\n') // as the agent left it
    return { home, workspace, storage }
  }

  it('pairs native calls, strips task_progress, counts usage per request and rewinds write_to_file and replace_in_file', async () => {
    const { home, workspace, storage } = clineTask()
    const before = folderListing(storage)
    const call = contractCaller(runtime({}, { env: { HOME: home } }))
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['cline'] })
    expect(report).toMatchObject({ files: 1, sessions: 1, fileChanges: 2, toolCalls: 5, skipped: [] })
    const [session] = (await call('sessions.list', { workspaceId: opened.id, source: 'cline' })).items
    const sessionId = session?.id ?? ''
    expect(session).toMatchObject({ title: 'Write a notes.md with a todo list: milk, bread', model: 'claude-sonnet-4-5-20250929', turnCount: 2 })
    // Five api_req_started rows: 3+5+4+4+4 in, 120+60+150+40+70 out, cache writes and reads, cost.
    expect(session?.usage).toMatchObject({ inputTokens: 20, outputTokens: 440, cacheWriteTokens: 9770, cacheReadTokens: 37350 })
    expect(session?.usage.costUsd).toBeCloseTo(0.0559, 6)

    const messages = (await call('transcript.page', { sessionId, limit: 100 })).items
    expect(messages.map((message) => message.role)).toEqual([
      'user', 'system', 'assistant', 'tool_call', 'tool_result', 'system', 'tool_call', 'tool_result', 'user', 'system',
      'reasoning', 'tool_call', 'tool_result', 'system', 'tool_call', 'tool_result', 'system', 'assistant', 'tool_call'
    ])
    expect(messages[8]).toMatchObject({ role: 'user', content: 'Add eggs after milk, and count the lines', turn: 2 })
    const write = messages.find((message) => message.toolName === 'write_to_file' && message.role === 'tool_call')
    expect(write?.toolInput).toEqual({ path: 'notes.md', content: '# Todo\n- milk\n- bread\n' })
    const results = messages.filter((message) => message.role === 'tool_result')
    expect(results.map((message) => message.toolCallId)).toEqual(['toolu_01Write', 'toolu_02Done', 'toolu_03Edit', 'toolu_04Wc'])
    // The first request's usage is on the answer it produced.
    expect(messages[2]?.usage).toMatchObject({ inputTokens: 3, outputTokens: 120, cacheWriteTokens: 9000 })

    const turn1 = await call('changes.ofTurn', { sessionId, turn: 1 })
    expect(turn1.items.map((change) => [change.path, change.op])).toEqual([['notes.md', 'create']])
    const turn2 = await call('changes.ofTurn', { sessionId, turn: 2 })
    expect(turn2.items.map((change) => [change.path, change.op, change.added, change.removed])).toEqual([['notes.md', 'modify', 1, 0]])
    const detail = await call('sessions.get', { sessionId })
    expect(detail.checkpoints.find((checkpoint) => checkpoint.turn === 2)?.uncapturedCommands).toBe(1)

    const plan = await call('rewind.plan', { sessionId, turn: 2 })
    const rewound = await call('rewind.apply', { sessionId, turn: 2, token: plan.token, choices: [] })
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('# Todo\n- milk\n- bread\n')
    const undoPlan = await call('rewind.planUndo', { rewindId: rewound.rewindId })
    await call('rewind.undo', { rewindId: rewound.rewindId, token: undoPlan.token, choices: [] })
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('# Todo\n- milk\n- eggs\n- bread\n')
    const toStart = await call('rewind.plan', { sessionId, turn: 1 })
    await call('rewind.apply', { sessionId, turn: 1, token: toStart.token, choices: [] })
    expect(existsSync(join(workspace, 'notes.md'))).toBe(false)
    expect(folderListing(storage)).toEqual(before)
  })

  /**
   * Cline's shadow repository for the workspace (CheckpointGitOperations: `core.worktree` set to it,
   * one commit per checkpoint), made with git the way Cline makes it: the workspace at the task's
   * start, after turn 1's write, after turn 2's edit and command (which wrote count.txt).
   */
  function shadowRepository(storage: string, workspace: string): string[] {
    const gitDir = join(storage, 'checkpoints', hashWorkingDir(workspace), '.git')
    mkdirSync(gitDir, { recursive: true })
    const env = { ...process.env, GIT_AUTHOR_NAME: 'Cline Checkpoint', GIT_AUTHOR_EMAIL: 'checkpoint@cline.bot', GIT_COMMITTER_NAME: 'Cline Checkpoint', GIT_COMMITTER_EMAIL: 'checkpoint@cline.bot' }
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', gitDir, '--work-tree', workspace, ...args], { env, encoding: 'utf8' }).trim()
    git('init', '--quiet')
    git('config', 'core.worktree', workspace)
    const commit = () => {
      git('add', '-A')
      git('commit', '--quiet', '--allow-empty', '-m', `checkpoint-${hashWorkingDir(workspace)}-${TASK}`)
      return git('rev-parse', 'HEAD')
    }
    const hashes = [commit()]
    writeFileSync(join(workspace, 'notes.md'), '# Todo\n- milk\n- bread\n')
    hashes.push(commit())
    writeFileSync(join(workspace, 'notes.md'), '# Todo\n- milk\n- eggs\n- bread\n')
    writeFileSync(join(workspace, 'count.txt'), '4 notes.md\n')
    hashes.push(commit())
    return hashes
  }

  it('takes what a command changed from the checkpoint commits, reading the shadow repository read-only', async () => {
    const { home, workspace, storage } = clineTask()
    // The workspace is made anew for the checkpoints: empty at the task's start.
    for (const name of readdirSync(workspace)) rmSync(join(workspace, name))
    const hashes = shadowRepository(storage, workspace)
    const task = join(storage, 'tasks', TASK)
    for (const name of readdirSync(task)) {
      const path = join(task, name)
      writeFileSync(path, hashes.reduce((out, hash, index) => out.replaceAll(`{{CHECKPOINT_${index}}}`, hash), readFileSync(path, 'utf8')))
    }
    const before = folderListing(storage)
    const call = contractCaller(runtime({}, { env: { HOME: home } }))
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['cline'] })
    // write_to_file and replace_in_file from the transcript; count.txt from the checkpoints.
    expect(report).toMatchObject({ sessions: 1, fileChanges: 3, skipped: [] })
    const [session] = (await call('sessions.list', { workspaceId: opened.id, source: 'cline' })).items
    const sessionId = session?.id ?? ''
    const turn1 = await call('changes.ofTurn', { sessionId, turn: 1 })
    expect(turn1.items.map((change) => [change.path, change.op])).toEqual([['notes.md', 'create']])
    const turn2 = await call('changes.ofTurn', { sessionId, turn: 2 })
    expect(turn2.items.map((change) => [change.path, change.op]).sort()).toEqual([['count.txt', 'create'], ['notes.md', 'modify']])

    const plan = await call('rewind.plan', { sessionId, turn: 2 })
    const rewound = await call('rewind.apply', { sessionId, turn: 2, token: plan.token, choices: [] })
    expect(existsSync(join(workspace, 'count.txt'))).toBe(false)
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('# Todo\n- milk\n- bread\n')
    const undoPlan = await call('rewind.planUndo', { rewindId: rewound.rewindId })
    await call('rewind.undo', { rewindId: rewound.rewindId, token: undoPlan.token, choices: [] })
    expect(readFileSync(join(workspace, 'count.txt'), 'utf8')).toBe('4 notes.md\n')
    // Nothing written in the storage, the shadow repository included (no index, no lock, no object).
    expect(folderListing(storage)).toEqual(before)
  })

  it('reports checkpoint commits the shadow repository does not have, and imports the transcript\'s edits', async () => {
    const { home, workspace, storage } = clineTask(['1111111', '2222222', '3333333'])
    mkdirSync(join(storage, 'checkpoints', hashWorkingDir(workspace), '.git'), { recursive: true })
    const call = contractCaller(runtime({}, { env: { HOME: home } }))
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['cline'] })
    expect(report).toMatchObject({ sessions: 1, fileChanges: 2 })
    expect(report.skipped.map((skip) => skip.reason)).toEqual([
      expect.stringMatching(/^1764791864800\/turn 1: checkpoint 1111111 or 2222222 is not in .*; its changes outside the transcript are not captured$/),
      expect.stringMatching(/^1764791864800\/turn 2: checkpoint 2222222 or 3333333 is not in /)
    ])
  })
})
