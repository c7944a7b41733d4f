import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { folderListing } from '../testing/folder-listing'
import { contractCaller, importTestbed } from '../testing/import-testbed'

const TASK = '1764791864800'
const RECORDED_CWD = '/home/dev/todo-app'

describe('a Cline 3 task (native tool calls) as rewindable turns', () => {
  const { tempDir, runtime } = importTestbed('retrace-cline-rewind-')

  /** The writer-built task, in VS Code's global storage of a temporary HOME, run in a temporary workspace. */
  function clineTask() {
    const home = tempDir()
    const workspace = tempDir()
    const storage = join(home, '.config', 'Code', 'User', 'globalStorage', 'saoudrizwan.claude-dev')
    const source = join(FIXTURES, 'cline', 'cline-writer', 'saoudrizwan.claude-dev', 'tasks', TASK)
    const target = join(storage, 'tasks', TASK)
    mkdirSync(target, { recursive: true })
    for (const name of readdirSync(source)) writeFileSync(join(target, name), readFileSync(join(source, name), 'utf8').replaceAll(RECORDED_CWD, workspace))
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
})
