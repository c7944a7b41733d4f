import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Message } from '../../../shared/contract'
import { FIXTURES } from '../testing/claude-home'
import { contractCaller, importTestbed } from '../testing/import-testbed'
import { folderListing } from '../testing/folder-listing'
import { projectHash } from './discover'

const REAL = join(FIXTURES, 'gemini-cli', 'codemie', 'gemini')
const FILE_OPS = 'session-2026-01-16T11-01-file-ops-37b7abef.json'
const EXPLAIN = 'session-2025-12-01T21-45-5b959dae.json'

function countRoles(messages: Message[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const message of messages) counts[message.role] = (counts[message.role] ?? 0) + 1
  return counts
}

describe('importing real Gemini CLI chat recordings (legacy session-*.json)', () => {
  const { tempDir, runtime } = importTestbed('retrace-gemini-')

  /** A workspace whose Gemini project folder (tmp/<sha256 of its path>/chats) holds the given real files. */
  function setUp(files: string[]) {
    const workspace = tempDir()
    const home = tempDir()
    const chats = join(home, '.gemini', 'tmp', projectHash(workspace), 'chats')
    mkdirSync(chats, { recursive: true })
    for (const file of files) cpSync(join(REAL, file), join(chats, file), { preserveTimestamps: true })
    cpSync(join(REAL, 'logs.json'), join(home, '.gemini', 'tmp', projectHash(workspace), 'logs.json'))
    // What Gemini left on disk after the file-ops session's last turn ("remove 2 and 3 line").
    writeFileSync(join(workspace, 'hello.md'), '# Hello World\nSphinx of black quartz, judge my vow.\nPack my box with five dozen liquor jugs.\nHow vexingly quick daft zebras jump.')
    const call = contractCaller(runtime({}, { env: { GEMINI_CLI_HOME: home } }))
    return { workspace, home, call }
  }

  it('imports both sessions: prompts as turns, tool calls paired with results, thoughts, tokens and model', async () => {
    const { workspace, home, call } = setUp([FILE_OPS, EXPLAIN])
    const before = folderListing(home)
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['gemini-cli'] })
    // Two file changes of the explain session are outside this workspace (/Users/Jane_Smith/…).
    expect(report).toMatchObject({ files: 3, sessions: 2, fileChanges: 3 })
    expect(report.skipped).toEqual([])
    expect(report.changesNotJournaled.map((s) => s.reason)).toEqual([
      'file change outside the workspace, not journaled: /Users/Jane_Smith/Documents/projects/epm-cdme/assistants/lead_gemini.txt',
      'file change outside the workspace, not journaled: /Users/Jane_Smith/Documents/projects/epm-cdme/assistants/lead_gemini.txt'
    ])
    expect(folderListing(home)).toEqual(before)

    const sessions = (await call('sessions.list', { workspaceId: opened.id, source: 'gemini-cli' })).items
    const fileOps = sessions.find((s) => s.title === 'show tools')
    const explain = sessions.find((s) => s.title === 'hi')
    expect([fileOps?.messageCount, fileOps?.turnCount, fileOps?.model]).toEqual([38, 5, 'gemini-3-pro'])
    expect([explain?.messageCount, explain?.turnCount, explain?.model]).toEqual([36, 3, 'gemini-3-pro-image-preview'])
    // Tokens, Anthropic's way: input without the cached part, output with the thoughts.
    // Sums over the files' `tokens` (input, cached, output, thoughts), counted apart with python.
    expect(fileOps?.usage).toMatchObject({ inputTokens: 87418 - 62117, cacheReadTokens: 62117, outputTokens: 1441 + 2914 })
    expect(explain?.usage).toMatchObject({ inputTokens: 101630 - 56538, cacheReadTokens: 56538, outputTokens: 2734 + 1493 })

    const ops = (await call('transcript.page', { sessionId: fileOps?.id ?? '', limit: 500 })).items
    expect(countRoles(ops)).toEqual({ user: 5, assistant: 5, tool_call: 14, tool_result: 14 })
    const calls = new Set(ops.filter((m) => m.role === 'tool_call').map((m) => m.toolCallId))
    expect(ops.filter((m) => m.role === 'tool_result' && calls.has(m.toolCallId))).toHaveLength(14)
    // What codemie-code's tests assert of this file: 3 write_file calls, 6 read_file calls.
    expect(ops.filter((m) => m.role === 'tool_call' && m.toolName === 'write_file')).toHaveLength(3)
    expect(ops.filter((m) => m.role === 'tool_call' && m.toolName === 'read_file')).toHaveLength(6)
    expect(ops.filter((m) => m.role === 'tool_result' && m.isError)).toHaveLength(0)
    expect(ops.filter((m) => m.role === 'user').map((m) => m.content).slice(2)).toEqual(['create hello.md file', 'add 5 lines of random text', 'remove 2 and 3 line'])

    const hi = (await call('transcript.page', { sessionId: explain?.id ?? '', limit: 500 })).items
    // 10 of the 11 gemini messages carry thoughts; 10 tool calls, each with its result.
    expect(countRoles(hi)).toEqual({ user: 3, assistant: 3, reasoning: 10, tool_call: 10, tool_result: 10 })
    expect(hi.find((m) => m.role === 'reasoning')?.content).toMatch(/^\*\*/)
  })

  it('a resumed legacy session goes on in its .jsonl copy: the same session, nothing twice', async () => {
    const { workspace, home, call } = setUp([FILE_OPS])
    const opened = await call('workspaces.open', { path: workspace })
    await call('imports.run', { workspaceId: opened.id, sources: ['gemini-cli'] })
    // What ChatRecordingService.initialize does on resuming a .json: a metadata line and every
    // message into `<name>.jsonl`, then a $set; then the session goes on there.
    const legacy = JSON.parse(readFileSync(join(REAL, FILE_OPS), 'utf8')) as { messages: unknown[]; sessionId: string; projectHash: string }
    const lines = [{ sessionId: legacy.sessionId, projectHash: legacy.projectHash }, ...legacy.messages, { $set: { sessionId: legacy.sessionId } }]
    lines.push({ id: 'resumed-1', timestamp: '2026-01-17T09:00:00.000Z', type: 'user', content: [{ text: 'and now?' }] })
    lines.push({ id: 'resumed-2', timestamp: '2026-01-17T09:00:05.000Z', type: 'gemini', content: 'Nothing else to do.', model: 'gemini-3-pro' })
    writeFileSync(join(home, '.gemini', 'tmp', projectHash(workspace), 'chats', `${FILE_OPS}l`), lines.map((line) => JSON.stringify(line)).join('\n') + '\n')
    const again = await call('imports.run', { workspaceId: opened.id, sources: ['gemini-cli'] })
    expect(again).toMatchObject({ files: 1, skipped: [] })
    const sessions = (await call('sessions.list', { workspaceId: opened.id, source: 'gemini-cli' })).items
    // Beside it, the session of logs.json that has no recording here (prompt-log.test.ts).
    expect(sessions.map((s) => [s.title, s.messageCount, s.turnCount])).toEqual([
      ['show tools', 40, 6],
      ['hi', 4, 3]
    ])
  })

  it('journals write_file as per-turn file changes and rewinds a turn on a real workspace, then undoes it', async () => {
    const { workspace, call } = setUp([FILE_OPS])
    const opened = await call('workspaces.open', { path: workspace })
    await call('imports.run', { workspaceId: opened.id, sources: ['gemini-cli'] })
    const [session] = (await call('sessions.list', { workspaceId: opened.id, source: 'gemini-cli' })).items
    const sessionId = session?.id ?? ''
    const changes = async (turn: number) => (await call('changes.ofTurn', { sessionId, turn })).items.map((c) => [c.path, c.op, c.added, c.removed])
    expect(await changes(3)).toEqual([['hello.md', 'create', 1, 0]])
    // The first version had no final newline: its one line counts as changed.
    expect(await changes(4)).toEqual([['hello.md', 'modify', 6, 1]])
    expect(await changes(5)).toEqual([['hello.md', 'modify', 0, 2]])

    const plan = await call('rewind.plan', { sessionId, turn: 5 })
    expect(plan.items.map((i) => [i.path, i.action, i.conflict])).toEqual([['hello.md', 'restore', null]])
    const rewound = await call('rewind.apply', { sessionId, turn: 5, token: plan.token, choices: [] })
    const sixLines = readFileSync(join(workspace, 'hello.md'), 'utf8')
    expect(sixLines.split('\n')).toHaveLength(6)
    expect(sixLines).toContain("A wizard's job is to vex chumps quickly in fog.")

    const undoPlan = await call('rewind.planUndo', { rewindId: rewound.rewindId })
    await call('rewind.undo', { rewindId: rewound.rewindId, token: undoPlan.token, choices: [] })
    expect(readFileSync(join(workspace, 'hello.md'), 'utf8').split('\n')).toHaveLength(4)

    const toCreate = await call('rewind.plan', { sessionId, turn: 3 })
    expect(toCreate.items.map((i) => [i.path, i.action])).toEqual([['hello.md', 'delete']])
  })
})
