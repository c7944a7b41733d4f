import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Message } from '../../../shared/contract'
import { FIXTURES } from '../testing/claude-home'
import { folderListing } from '../testing/folder-listing'
import { contractCaller, importTestbed, type ContractCall } from '../testing/import-testbed'

// Fixtures built from Copilot CLI's published event schema and writer (see PROVENANCE.txt).
const FIXTURE = join(FIXTURES, 'copilot-cli', 'writer-1.0', 'session-state')
const MAIN = '5d0f4b7e-2c41-4f7a-9a55-0c9e3f6b1a21'
const RESUMED = '8b2e6c90-71d4-4e0b-b3a8-5f2d9c4e7a10'
const RECORDED_CWD = '/home/dev/notes-app'
const TODO_BEFORE_TURN_2 = '# TODO\n\n- [ ] sync notes\n- [ ] add search\n'
const TODO_AFTER = '# TODO\n\n- [x] sync notes\n- [ ] add search\n'

async function transcript(call: ContractCall, sessionId: string): Promise<Message[]> {
  return (await call('transcript.page', { sessionId, limit: 500 })).items
}

function countRoles(messages: Message[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const message of messages) counts[message.role] = (counts[message.role] ?? 0) + 1
  return counts
}

describe('importing Copilot CLI session-state', () => {
  const { tempDir, runtime } = importTestbed('retrace-copilot-')

  /**
   * A COPILOT_HOME holding a copy of the fixture, its recorded cwd moved to a real temporary
   * workspace that holds TODO.md as the agent left it.
   */
  async function openCopy() {
    const workspace = tempDir()
    const home = join(tempDir(), 'copilot-home')
    cpSync(FIXTURE, join(home, 'session-state'), { recursive: true })
    for (const name of ['events.jsonl', 'workspace.yaml']) {
      const path = join(home, 'session-state', MAIN, name)
      writeFileSync(path, readFileSync(path, 'utf8').replaceAll(RECORDED_CWD, workspace))
    }
    writeFileSync(join(workspace, 'TODO.md'), TODO_AFTER)
    const call = contractCaller(runtime({}, { env: { COPILOT_HOME: home } }))
    const opened = await call('workspaces.open', { path: workspace })
    return { workspace, home, call, opened }
  }

  it('reads prompts as turns, answers, reasoning, paired tools, usage and the sub-agent as a child session', async () => {
    const { home, call, opened } = await openCopy()
    const before = folderListing(home)
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['copilot-cli'] })
    expect(report).toMatchObject({ files: 1, sessions: 2, fileChanges: 2, skipped: [] })
    // Copilot's folder is only read.
    expect(folderListing(home)).toEqual(before)

    const sessions = (await call('sessions.list', { workspaceId: opened.id, source: 'copilot-cli' })).items
    expect(sessions).toHaveLength(2)
    const main = sessions.find((session) => session.kind !== 'sub-agent')
    const child = sessions.find((session) => session.kind === 'sub-agent')
    expect(main).toMatchObject({ title: 'Add a TODO.md listing the open tasks: sync notes, add search.', messageCount: 17, turnCount: 3, model: 'claude-sonnet-4.5' })
    const detail = await call('sessions.get', { sessionId: main?.id ?? '' })
    expect(detail.sourceSessionId).toBe(MAIN)

    const messages = await transcript(call, main?.id ?? '')
    expect(countRoles(messages)).toEqual({ user: 3, reasoning: 2, assistant: 4, tool_call: 4, tool_result: 4 })
    // The reasoning event and the message's reasoningText say the same: shown once.
    expect(messages.filter((m) => m.content === 'Flip the first checkbox, then run npm test.')).toHaveLength(1)
    // Every call is answered by the result with its id; the failed `npm test` is an error.
    const calls = messages.filter((m) => m.role === 'tool_call')
    const results = messages.filter((m) => m.role === 'tool_result')
    expect(calls.map((m) => m.toolName)).toEqual(['create', 'edit', 'bash', 'task'])
    expect(results.map((m) => calls.find((c) => c.toolCallId === m.toolCallId)?.toolName)).toEqual(['create', 'edit', 'bash', 'task'])
    expect(results.filter((m) => m.isError).map((m) => m.toolName)).toEqual(['bash'])
    // Ephemeral streaming deltas are not messages.
    expect(messages.some((m) => m.content === 'I’ll')).toBe(false)

    // The sub-agent: its unmarked opening prompt, its own tool pair and answer; hung below the task call.
    expect(child).toMatchObject({ title: 'Summarise README', messageCount: 4, parentId: main?.id })
    const childMessages = await transcript(call, child?.id ?? '')
    expect(childMessages.map((m) => m.role)).toEqual(['user', 'tool_call', 'tool_result', 'assistant'])
    expect(childMessages[0]?.content).toBe('Read README.md and summarise it in two lines.')
    const childDetail = await call('sessions.get', { sessionId: child?.id ?? '' })
    expect(childDetail.forkSeq).toBe(messages.find((m) => m.toolName === 'task' && m.role === 'tool_call')?.seq)

    // Output tokens from the messages (471 main + 50 sub-agent); the rest from session.shutdown's model metrics.
    expect(main?.usage.outputTokens).toBe(471)
    expect(child?.usage.outputTokens).toBe(50)
    // Copilot's inputTokens include the cache reads and writes listed beside them (issue 40).
    expect(main?.usage.inputTokens).toBe(84210 - 61002 - 9870 + 9070)
    expect(main?.usage.cacheReadTokens).toBe(61002)
    expect(main?.usage.cacheWriteTokens).toBe(9870)
  })

  it('journals the create and edit tools so their turns rewind, and undoes the rewind', async () => {
    const { workspace, call, opened } = await openCopy()
    await call('imports.run', { workspaceId: opened.id, sources: ['copilot-cli'] })
    const sessions = (await call('sessions.list', { workspaceId: opened.id, source: 'copilot-cli' })).items
    const sessionId = sessions.find((session) => session.kind !== 'sub-agent')?.id ?? ''
    const turn1 = await call('changes.ofTurn', { sessionId, turn: 1 })
    expect(turn1.items.map((c) => [c.path, c.op, c.observed])).toEqual([['TODO.md', 'create', 'tool']])
    const turn2 = await call('changes.ofTurn', { sessionId, turn: 2 })
    expect(turn2.items.map((c) => [c.path, c.op, c.observed, c.added, c.removed])).toEqual([['TODO.md', 'modify', 'patch', 1, 1]])

    const plan = await call('rewind.plan', { sessionId, turn: 2 })
    expect(plan.items.map((i) => [i.path, i.action, i.conflict, i.refused])).toEqual([['TODO.md', 'restore', null, null]])
    const rewound = await call('rewind.apply', { sessionId, turn: 2, token: plan.token, choices: [] })
    expect(readFileSync(join(workspace, 'TODO.md'), 'utf8')).toBe(TODO_BEFORE_TURN_2)

    const undoPlan = await call('rewind.planUndo', { rewindId: rewound.rewindId })
    await call('rewind.undo', { rewindId: rewound.rewindId, token: undoPlan.token, choices: [] })
    expect(readFileSync(join(workspace, 'TODO.md'), 'utf8')).toBe(TODO_AFTER)

    const toStart = await call('rewind.plan', { sessionId, turn: 1 })
    expect(toStart.items.map((i) => [i.path, i.action])).toEqual([['TODO.md', 'delete']])
    await call('rewind.apply', { sessionId, turn: 1, token: toStart.token, choices: [] })
    expect(existsSync(join(workspace, 'TODO.md'))).toBe(false)
  })

  it('skips a line cut short with a reason and imports the rest; a later line continues the session', async () => {
    const { home, call, opened } = await openCopy()
    const events = join(home, 'session-state', MAIN, 'events.jsonl')
    const lines = readFileSync(events, 'utf8').split('\n')
    // Cut the second assistant message of turn 1 in half, as a crash mid-write would.
    const cut = lines.findIndex((line) => line.includes('Created TODO.md with two open tasks.'))
    lines[cut] = (lines[cut] ?? '').slice(0, 80)
    writeFileSync(events, lines.join('\n'))
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['copilot-cli'] })
    expect(report.skipped).toHaveLength(1)
    expect(report.skipped[0]?.reason).toMatch(/not a JSON line/)
    const main = (await call('sessions.list', { workspaceId: opened.id, source: 'copilot-cli' })).items.find((s) => s.kind !== 'sub-agent')
    expect(main).toMatchObject({ messageCount: 16, turnCount: 3 })
  })

  it('imports what was appended since, and keeps the turns /rewind took out of the file, marked', async () => {
    const { home, call, opened } = await openCopy()
    const events = join(home, 'session-state', MAIN, 'events.jsonl')
    const whole = readFileSync(events, 'utf8')
    const lines = whole.split('\n')
    const third = lines.findIndex((line) => line.includes('Have a sub-agent summarise README.md'))
    // First the file as it was before the third prompt, then the rest appended.
    writeFileSync(events, lines.slice(0, third).join('\n') + '\n')
    await call('imports.run', { workspaceId: opened.id, sources: ['copilot-cli'] })
    const mainOf = async () => (await call('sessions.list', { workspaceId: opened.id, source: 'copilot-cli' })).items.filter((s) => s.kind !== 'sub-agent')
    expect((await mainOf()).map((s) => [s.turnCount, s.messageCount])).toEqual([[2, 13]])
    writeFileSync(events, whole)
    const grown = await call('imports.run', { workspaceId: opened.id, sources: ['copilot-cli'] })
    // Only the new lines: 4 messages of the main session, 4 of the sub-agent (the one new session).
    expect(grown).toMatchObject({ sessions: 1, messages: 8, skipped: [] })
    expect((await mainOf()).map((s) => [s.turnCount, s.messageCount])).toEqual([[3, 17]])

    // Copilot's /rewind rewrites the file in place without the turns after the chosen one: it is
    // read again from its start, and what it no longer holds is kept, marked so (R31).
    writeFileSync(events, lines.slice(0, third).join('\n') + '\n')
    expect(await call('imports.run', { workspaceId: opened.id, sources: ['copilot-cli'] })).toMatchObject({ sessions: 0, messages: 0 })
    const [main] = await mainOf()
    expect([main?.turnCount, main?.messageCount]).toEqual([3, 17])
    const marked = (await transcript(call, main?.id ?? '')).filter((message) => message.sourceRef && 'file' in message.sourceRef && message.sourceRef.notInFile)
    expect(marked.map((message) => message.seq)).toEqual([13, 14, 15, 16])
  })

  it('finds the resumed session of another folder by its workspace.yaml cwd, with its model change and compaction', async () => {
    const other = tempDir()
    const home = join(tempDir(), 'copilot-home')
    mkdirSync(join(home, 'session-state', RESUMED), { recursive: true })
    for (const name of ['events.jsonl', 'workspace.yaml']) {
      const text = readFileSync(join(FIXTURE, RESUMED, name), 'utf8')
      writeFileSync(join(home, 'session-state', RESUMED, name), text.replaceAll('/home/dev/other-app', other))
    }
    const call = contractCaller(runtime({}, { env: { COPILOT_HOME: home } }))
    const opened = await call('workspaces.open', { path: other })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['copilot-cli'] })
    expect(report).toMatchObject({ files: 1, sessions: 1, skipped: [] })
    const [session] = (await call('sessions.list', { workspaceId: opened.id, source: 'copilot-cli' })).items
    expect(session).toMatchObject({ title: 'What does src/app.ts export?', turnCount: 2, messageCount: 5, model: 'claude-opus-4.6' })
    const messages = await transcript(call, session?.id ?? '')
    expect(countRoles(messages)).toEqual({ user: 2, assistant: 2, compaction_summary: 1 })
    // Usage of the first run: 15 output tokens on the message, 12000 input from its shutdown.
    expect(session?.usage).toMatchObject({ inputTokens: 12000, outputTokens: 37 })
    const detail = await call('sessions.get', { sessionId: session?.id ?? '' })
    // The compaction moved the context start past the first turn.
    expect(detail.contextStartSeq).toBeGreaterThan(0)
  })
})
