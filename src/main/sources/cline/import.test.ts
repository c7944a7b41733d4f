import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Message } from '../../../shared/contract'
import { FIXTURES } from '../testing/claude-home'
import { folderListing } from '../testing/folder-listing'
import { contractCaller, importTestbed, type ContractCall } from '../testing/import-testbed'

const FIXTURE = join(FIXTURES, 'cline')
const ROO_TASK = 'bc93a6f7-cd2e-4686-a832-46e3cd14d338'
const SDK_SESSION = '1784094124598_rruoq'
const SDK_CWD = '/Users/example/dev/cline'
const SIDEBAR = 'apps/examples/desktop-app/webview/components/agent-sidebar.tsx'

async function transcript(call: ContractCall, sessionId: string): Promise<Message[]> {
  return (await call('transcript.page', { sessionId, limit: 500 })).items
}

function countRoles(messages: Message[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const message of messages) counts[message.role] = (counts[message.role] ?? 0) + 1
  return counts
}

describe('importing Cline, Roo Code and Kilo Code tasks', () => {
  const { tempDir, runtime } = importTestbed('retrace-cline-')

  it('reads a real Roo Code task from its VS Code global storage: transcript, tool pairs, usage and cost', async () => {
    const home = tempDir()
    const storage = join(home, '.config', 'Code', 'User', 'globalStorage', 'rooveterinaryinc.roo-cline')
    cpSync(join(FIXTURE, 'roo-code', 'rooveterinaryinc.roo-cline'), storage, { recursive: true, preserveTimestamps: true })
    const before = folderListing(storage)
    const call = contractCaller(runtime({}, { env: { HOME: home } }))
    // The task ran in d:/dev/roo-extensions (Windows): the global storage opened as a workspace shows it.
    const workspace = await call('workspaces.open', { path: storage })
    const report = await call('imports.run', { workspaceId: workspace.id, sources: ['cline'] })
    expect(report).toMatchObject({ files: 1, sessions: 1, skipped: [] })
    const [session] = (await call('sessions.list', { workspaceId: workspace.id, source: 'cline' })).items
    expect(session?.title).toBe('PHASE 1 : Diagnostic Système Interface-First - Stratégie Anti-Échec SDDD (Roo Code)')
    expect(session?.model).toBe('claude-sonnet-4-20250514') // the <model> of Roo's environment details
    // 30 api_req_started rows of ui_messages.json, summed (python over the fixture).
    expect(session?.usage).toMatchObject({ inputTokens: 285, outputTokens: 16461, cacheReadTokens: 1039280, cacheWriteTokens: 689253 })
    expect(session?.usage.costUsd).toBeCloseTo(2.90000775, 6)
    expect(session?.turnCount).toBe(9)

    const messages = await transcript(call, session?.id ?? '')
    // 63 API messages: 30 XML tool calls; 27 `[tool …] Result:` blocks (with the text blocks after
    // them) and 3 `[new_task completed]` sub-task reports; 33 environment details; 9 prompts
    // (<task>, <user_message>, <answer>).
    expect(countRoles(messages)).toEqual({ user: 9, assistant: 39, tool_call: 30, tool_result: 27, system: 36 })
    expect(messages.filter((message) => message.role === 'system' && message.content.startsWith('<environment_details>'))).toHaveLength(33)
    expect(messages.filter((message) => message.role === 'system' && message.content.startsWith('[new_task completed] Result:'))).toHaveLength(3)
    const calls = new Map(messages.filter((message) => message.role === 'tool_call').map((message) => [message.toolCallId, message]))
    const results = messages.filter((message) => message.role === 'tool_result')
    // Every result answers a call of its tool; the 3 calls left are new_task calls the user interrupted.
    expect(results.filter((result) => calls.get(result.toolCallId)?.toolName === result.toolName)).toHaveLength(27)
    const answered = new Set(results.map((result) => result.toolCallId))
    expect([...calls.values()].filter((message) => !answered.has(message.toolCallId)).map((message) => message.toolName)).toEqual(['new_task', 'new_task', 'new_task'])
    expect(results.filter((result) => result.isError)).toHaveLength(1) // use_mcp_tool not allowed in orchestrator mode
    const todo = messages.find((message) => message.role === 'tool_call' && message.toolName === 'update_todo_list')
    expect(todo?.toolInput).toMatchObject({ todos: expect.stringContaining('[') as unknown })
    expect(messages[0]).toMatchObject({ role: 'user', turn: 1 })
    expect(messages[0]?.content).toMatch(/^# PHASE 1 : Diagnostic Système Interface-First/)

    // Read-only: nothing written in the storage; nothing new the second time.
    expect(await call('imports.run', { workspaceId: workspace.id, sources: ['cline'] })).toMatchObject({ files: 0, sessions: 0 })
    expect(folderListing(storage)).toEqual(before)
  })

  /** Cline's SDK fixture session (Cline 4), moved to a temporary workspace holding the file it edited, as the agent left it. */
  function sdkWorkspace() {
    const home = tempDir()
    const workspace = join(tempDir(), 'cline')
    const source = join(FIXTURE, 'cline-sdk', 'sessions', SDK_SESSION)
    const target = join(home, '.cline', 'data', 'sessions', SDK_SESSION)
    mkdirSync(target, { recursive: true })
    for (const name of [`${SDK_SESSION}.json`, `${SDK_SESSION}.messages.json`]) {
      writeFileSync(join(target, name), readFileSync(join(source, name), 'utf8').replaceAll(SDK_CWD, workspace))
    }
    // The file's content as attached to the first prompt, then the four `editor` calls applied in order.
    const messages = (JSON.parse(readFileSync(join(target, `${SDK_SESSION}.messages.json`), 'utf8')) as { messages: { content: { type: string; name?: string; input?: { old_text: string; new_text: string }; content?: string }[] }[] }).messages
    const attached = messages[0]?.content.find((block) => block.type === 'file')?.content ?? ''
    const states = [attached]
    for (const message of messages) {
      for (const block of message.content) {
        if (block.type === 'tool_use' && block.name === 'editor' && block.input) {
          const last = states[states.length - 1] as string
          expect(last.split(block.input.old_text)).toHaveLength(2)
          states.push(last.replace(block.input.old_text, () => block.input?.new_text ?? ''))
        }
      }
    }
    mkdirSync(dirname(join(workspace, SIDEBAR)), { recursive: true })
    writeFileSync(join(workspace, SIDEBAR), states[4] as string)
    return { home, workspace, target, states }
  }

  it('shows a Cline 4 sub-agent\'s messages file as a sub-agent session below its session', async () => {
    const { home, workspace, target } = sdkWorkspace()
    cpSync(join(FIXTURE, 'cline-sdk', 'contract', 'success.messages.json'), join(target, 'agent_readme.messages.json'))
    const before = folderListing(target)
    const call = contractCaller(runtime({}, { env: { HOME: home } }))
    const opened = await call('workspaces.open', { path: workspace })
    expect(await call('imports.run', { workspaceId: opened.id, sources: ['cline'] })).toMatchObject({ files: 1, sessions: 2, skipped: [] })
    const sessions = (await call('sessions.list', { workspaceId: opened.id, source: 'cline' })).items
    const main = sessions.find((session) => session.kind !== 'sub-agent')
    const agent = sessions.find((session) => session.kind === 'sub-agent')
    expect(agent).toMatchObject({ parentId: main?.id, title: 'Inspect the README and summarize it.', model: 'claude-sonnet-4-6', turnCount: 1 })
    expect(agent?.usage).toMatchObject({ inputTokens: 21, outputTokens: 8, cacheReadTokens: 3, cacheWriteTokens: 1, costUsd: 0.13 })
    const messages = (await call('transcript.page', { sessionId: agent?.id ?? '', limit: 50 })).items
    expect(messages.map((message) => [message.role, message.toolCallId])).toEqual([
      ['user', null],
      ['reasoning', null],
      ['tool_call', 'tool-call-1'],
      ['tool_result', 'tool-call-1'],
      ['assistant', null]
    ])
    expect(folderListing(target)).toEqual(before)
  })

  it('reads a Cline 4 session (sessions/<id>/) by its cwd, with usage per answer and rewindable editor edits', async () => {
    const { home, workspace, target, states } = sdkWorkspace()
    expect(states).toHaveLength(5)
    const before = folderListing(target)
    const call = contractCaller(runtime({}, { env: { HOME: home } }))
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['cline'] })
    expect(report).toMatchObject({ files: 1, sessions: 1, fileChanges: 4, skipped: [] })
    const [session] = (await call('sessions.list', { workspaceId: opened.id, source: 'cline' })).items
    expect(session?.title).toMatch(/^can you update @apps\/examples\/desktop-app.* \(fork\)$/)
    expect(session?.turnCount).toBe(5)
    expect(session?.usage).toMatchObject({ inputTokens: 630254, outputTokens: 4395, cacheReadTokens: 534435, cacheWriteTokens: 0 })
    expect(session?.usage.costUsd).toBeCloseTo(2.036022565, 6)
    const messages = await transcript(call, session?.id ?? '')
    expect(countRoles(messages)).toEqual({ user: 5, assistant: 14, tool_call: 11, tool_result: 11, system: 1 })
    const callIds = new Set(messages.filter((message) => message.role === 'tool_call').map((message) => message.toolCallId))
    expect(messages.filter((message) => message.role === 'tool_result' && callIds.has(message.toolCallId))).toHaveLength(11)
    expect(messages.filter((message) => message.role === 'assistant').at(-1)).toMatchObject({ model: 'mistralai/voxtral-small-24b-2507', content: 'Hello! How can I assist you today?' })

    for (const turn of [1, 2, 3, 4]) {
      const changes = await call('changes.ofTurn', { sessionId: session?.id ?? '', turn })
      expect(changes.items.map((change) => [change.path, change.op])).toEqual([[SIDEBAR, 'modify']])
    }
    // Back to the start of turn 2: the file as turn 1's edit left it; undo brings the last state back.
    const plan = await call('rewind.plan', { sessionId: session?.id ?? '', turn: 2 })
    expect(plan.items.map((item) => [item.path, item.action, item.conflict])).toEqual([[SIDEBAR, 'restore', null]])
    const rewound = await call('rewind.apply', { sessionId: session?.id ?? '', turn: 2, token: plan.token, choices: [] })
    expect(readFileSync(join(workspace, SIDEBAR), 'utf8')).toBe(states[1])
    const undoPlan = await call('rewind.planUndo', { rewindId: rewound.rewindId })
    await call('rewind.undo', { rewindId: rewound.rewindId, token: undoPlan.token, choices: [] })
    expect(readFileSync(join(workspace, SIDEBAR), 'utf8')).toBe(states[4])
    expect(folderListing(target)).toEqual(before)
  })

  it('skips a task whose history is cut off, with the reason, and imports the others', async () => {
    const storage = join(tempDir(), 'kilocode.kilo-code')
    cpSync(join(FIXTURE, 'roo-code', 'rooveterinaryinc.roo-cline'), storage, { recursive: true })
    const good = join(storage, 'tasks', ROO_TASK)
    const cut = join(storage, 'tasks', 'cut-task')
    const odd = join(storage, 'tasks', 'odd-task')
    mkdirSync(cut)
    mkdirSync(odd)
    const history = readFileSync(join(good, 'api_conversation_history.json'), 'utf8')
    writeFileSync(join(cut, 'api_conversation_history.json'), history.slice(0, 5000))
    // A list with one entry that is no message, and a ui_messages.json that is cut off.
    const messages = JSON.parse(history) as unknown[]
    writeFileSync(join(odd, 'api_conversation_history.json'), JSON.stringify([messages[0], 42, messages[1]]))
    writeFileSync(join(odd, 'ui_messages.json'), '[{"ts":1,"type":"say"')
    const before = folderListing(storage)
    const call = contractCaller(runtime({}, { env: { RETRACE_CLINE_DIRS: storage } }))
    const workspace = await call('workspaces.open', { path: storage })
    const report = await call('imports.run', { workspaceId: workspace.id, sources: ['cline'] })
    expect(report.sessions).toBe(2)
    const reasons = report.skipped.map((skip) => skip.reason)
    expect(reasons).toContainEqual(expect.stringMatching(/^cut-task\/api_conversation_history\.json: not valid JSON .*the task is not imported$/))
    expect(reasons).toContainEqual('api_conversation_history.json[1]: not a message with a user or assistant role')
    expect(reasons).toContainEqual(expect.stringMatching(/^odd-task\/ui_messages\.json: not valid JSON .*usage and cost not read$/))
    const sessions = (await call('sessions.list', { workspaceId: workspace.id, source: 'cline' })).items
    expect(sessions.map((session) => session.title).sort()).toEqual([
      'PHASE 1 : Diagnostic Système Interface-First - Stratégie Anti-Échec SDDD (Kilo Code)',
      'PHASE 1 : Diagnostic Système Interface-First - Stratégie Anti-Échec SDDD (Kilo Code)'
    ])
    // The whole task (141 messages), and the odd one's two messages: prompt, 2 environment details, 3 of the answer.
    expect(sessions.map((session) => session.messageCount).sort((a, b) => a - b)).toEqual([6, 141])
    expect(folderListing(storage)).toEqual(before)
  })
})
