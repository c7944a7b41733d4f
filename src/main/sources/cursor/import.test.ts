import { createHash } from 'node:crypto'
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { contractCaller, importTestbed } from '../testing/import-testbed'
import { buildCurrentStores, LEGACY_USER_DIR, readStoresSpec } from './testing/cursor-stores'

const { tempDir, runtime } = importTestbed('retrace-cursor-')
const spec = readStoresSpec()
const COMPOSER_A = '3f6c2a1e-8b4d-4c7a-9e15-0d2b7f9a4c61'
const COMPOSER_B = 'a81d5e02-6c3f-4b9e-8d27-5f1e0c4b93aa'

/** Every file under a folder with its SHA-256: Cursor's stores must be left byte for byte as they were. */
function hashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name)
      if (statSync(path).isDirectory()) walk(path)
      else out[path] = createHash('sha256').update(readFileSync(path)).digest('hex')
    }
  }
  walk(dir)
  return out
}

/** A project the agent worked in (src/http.ts as the conversation left it) and Cursor's stores naming it. */
function currentSetup(options: { spec?: typeof spec } = {}) {
  const workspace = tempDir()
  mkdirSync(join(workspace, 'src'))
  writeFileSync(join(workspace, 'src/http.ts'), spec.files.v2 ?? '')
  const appData = tempDir()
  const stores = buildCurrentStores(appData, workspace, options.spec)
  const call = contractCaller(runtime({}, { env: { VSCODE_APPDATA: appData } }))
  return { workspace, appData, stores, call }
}

describe('importing Cursor composer conversations (global cursorDiskKV, Cursor 1.x–3.x)', () => {
  it('makes each composer of the workspace a session: prompts as turns, thinking, tool calls with results, model and usage', async () => {
    const { workspace, appData, call } = currentSetup()
    const before = hashes(appData)
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['cursor'] })
    // A (listed by the workspace), B (by the global composerHeaders table), G (by the global recent
    // heads of Cursor 3.0-3.8), C (A's sub-agent). Not D (another workspace), E (a tombstone), F (a
    // draft with no message).
    expect(report.sessions).toBe(4)
    expect(report.skipped.map((skip) => skip.reason)).toEqual([`bubble 0a1f9c2e-bad of composer ${COMPOSER_A} is not a message Retrace reads`])
    const sessions = (await call('sessions.list', { workspaceId: opened.id })).items
    expect(sessions.map((session) => [session.source, session.title, session.turnCount]).sort()).toEqual([
      ['cursor', 'Rename fetchJson', 1],
      ['cursor', 'Retry fetchJson with backoff', 2],
      ['cursor', 'Why retry only 5xx', 1],
      ['cursor', 'Write tests for fetchJson', 1]
    ])
    const main = sessions.find((session) => session.title === 'Retry fetchJson with backoff')
    expect(main?.model).toBe('claude-4.5-sonnet-thinking')
    expect([main?.usage.inputTokens, main?.usage.outputTokens]).toEqual([18234 + 21011, 812 + 164])
    const page = await call('transcript.page', { sessionId: main?.id ?? '', limit: 500 })
    const count = (role: string) => page.items.filter((message) => message.role === role).length
    // Six calls (read, edit, a failed npm test, edit, the sub-agent's task, a cancelled grep); the
    // cancelled one has no result. The bubble with an unnamed tool shows nothing.
    expect([count('user'), count('reasoning'), count('assistant'), count('tool_call'), count('tool_result')]).toEqual([2, 1, 2, 6, 5])
    const calls = new Map(page.items.filter((message) => message.role === 'tool_call').map((message) => [message.toolCallId, message.toolName]))
    for (const result of page.items.filter((message) => message.role === 'tool_result')) expect(calls.has(result.toolCallId)).toBe(true)
    expect(page.items.filter((message) => message.role === 'tool_result' && message.isError).map((message) => message.toolCallId)).toEqual(['toolu_01RunTests'])
    expect(page.items.find((message) => message.role === 'user')?.content).toBe('Add a retry with exponential backoff to fetchJson in src/http.ts')

    // B's answer is in its composerData's conversationMap, not in a bubble row.
    const chat = sessions.find((session) => session.title === 'Why retry only 5xx')
    const chatPage = await call('transcript.page', { sessionId: chat?.id ?? '', limit: 50 })
    expect(chatPage.items.map((message) => message.role)).toEqual(['user', 'assistant'])
    expect(chatPage.items[1]?.content).toMatch(/^A 4xx means/)

    // The sub-agent hangs below the composer that started it.
    const tree = await call('sessions.tree', { workspaceId: opened.id })
    const sub = tree.nodes.find((node) => node.title === 'Write tests for fetchJson')
    expect(sub?.kind).toBe('sub-agent')
    expect(sub?.parentId).toBe(main?.id)

    expect(hashes(appData)).toEqual(before)
    // Nothing changed: nothing is imported again.
    expect(await call('imports.run', { workspaceId: opened.id, sources: ['cursor'] })).toMatchObject({ sessions: 0 })
  })

  it('rewinds a turn from the before/after contents Cursor kept for its edits, and undoes it', async () => {
    const { workspace, call } = currentSetup()
    const opened = await call('workspaces.open', { path: workspace })
    await call('imports.run', { workspaceId: opened.id, sources: ['cursor'] })
    const main = (await call('sessions.list', { workspaceId: opened.id })).items.find((session) => session.title === 'Retry fetchJson with backoff')
    const sessionId = main?.id ?? ''
    for (const turn of [1, 2]) {
      const changes = await call('changes.ofTurn', { sessionId, turn })
      expect(changes.items.map((change) => [change.path, change.op, change.observed])).toEqual([['src/http.ts', 'modify', 'tool']])
    }
    const file = join(workspace, 'src/http.ts')
    const plan = await call('rewind.plan', { sessionId, turn: 2 })
    expect(plan.items.map((item) => [item.path, item.action, item.conflict, item.refused])).toEqual([['src/http.ts', 'restore', null, null]])
    const rewound = await call('rewind.apply', { sessionId, turn: 2, token: plan.token, choices: [] })
    expect(readFileSync(file, 'utf8')).toBe(spec.files.v1)
    const undoPlan = await call('rewind.planUndo', { rewindId: rewound.rewindId })
    await call('rewind.undo', { rewindId: rewound.rewindId, token: undoPlan.token, choices: [] })
    expect(readFileSync(file, 'utf8')).toBe(spec.files.v2)
    const toStart = await call('rewind.plan', { sessionId, turn: 1 })
    await call('rewind.apply', { sessionId, turn: 1, token: toStart.token, choices: [] })
    expect(readFileSync(file, 'utf8')).toBe(spec.files.v0)
  })

  it('marks the results Cursor pruned as pruned, and reports an edit whose result was pruned as not captured', async () => {
    // Cursor drops `toolFormerData.result` of finished calls and keeps them only in the bubble's
    // base64 `toolCallBinary` (an `agent.v1.ToolCall` protobuf): the read of turn 1 and the edit of turn 2.
    const pruned = readStoresSpec()
    pruned.global.cursorDiskKV = pruned.global.cursorDiskKV.map(([key, value]) => {
      if (value === null || !(key.endsWith(':0a1f9c2e-a2') || key.endsWith(':0a1f9c2e-a7'))) return [key, value]
      const bubble = JSON.parse(value) as { toolFormerData: Record<string, unknown> }
      delete bubble.toolFormerData.result
      bubble.toolFormerData.toolCallBinary = Buffer.from('\x0a\x05call1').toString('base64')
      return [key, JSON.stringify(bubble)]
    })
    const { workspace, call } = currentSetup({ spec: pruned })
    const opened = await call('workspaces.open', { path: workspace })
    await call('imports.run', { workspaceId: opened.id, sources: ['cursor'] })
    const main = (await call('sessions.list', { workspaceId: opened.id })).items.find((session) => session.title === 'Retry fetchJson with backoff')
    const sessionId = main?.id ?? ''
    const items = (await call('transcript.page', { sessionId, limit: 500 })).items
    const results = items.filter((item) => item.role === 'tool_result').map((item) => [item.toolName, item.content.startsWith('[result pruned by Cursor')])
    expect(results).toEqual([['read_file_v2', true], ['edit_file_v2', false], ['run_terminal_command_v2', false], ['edit_file_v2', true], ['task_v2', false]])
    // The cancelled grep has no result, and is not called pruned.
    expect(items.filter((item) => item.toolName === 'grep').map((item) => item.role)).toEqual(['tool_call'])
    const checkpoints = (await call('sessions.get', { sessionId })).checkpoints
    expect(checkpoints.flatMap((checkpoint) => checkpoint.notCaptured.map((entry) => [checkpoint.turn, entry.path, entry.reason]))).toEqual([[2, 'src/http.ts', expect.stringContaining('Cursor pruned the result of this call')]])
  })

  it('skips a composer whose data is damaged and imports the rest', async () => {
    const damaged = structuredClone(spec)
    const row = damaged.global.cursorDiskKV.find(([key]) => key === `composerData:${COMPOSER_B}`)
    if (row) row[1] = '{"_v":13,"composerId":'
    const { workspace, call } = currentSetup({ spec: damaged })
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['cursor'] })
    expect(report.sessions).toBe(3)
    expect(report.skipped.map((skip) => skip.reason)).toContain(`composerData:${COMPOSER_B} is not a JSON object: that conversation was not read`)
  })

  it('reports a workspace store that is not SQLite, without stopping', async () => {
    const { workspace, stores, call } = currentSetup()
    writeFileSync(stores.workspaceDb, 'not a database')
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['cursor'] })
    expect(report.sessions).toBe(0)
    expect(report.skipped).toEqual([{ file: stores.workspaceDb, offset: 0, reason: expect.stringContaining(stores.workspaceDb) as string }])
  })
})

describe('importing Cursor 0.4x composers kept whole in the workspace store (real store, Nov 2024)', () => {
  it('reads every composer of composer.composerData with its inline conversation', async () => {
    const workspace = tempDir()
    const appData = tempDir()
    const userDir = join(appData, 'Cursor', 'User')
    cpSync(LEGACY_USER_DIR, userDir, { recursive: true })
    const workspaceJson = join(userDir, 'workspaceStorage/f87f6e0b2cf1ae8645cc0c5ffaa99529/workspace.json')
    writeFileSync(workspaceJson, JSON.stringify({ folder: pathToFileURL(workspace).href }))
    const before = hashes(appData)
    const call = contractCaller(runtime({}, { env: { VSCODE_APPDATA: appData } }))
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['cursor'] })
    expect(report).toMatchObject({ sessions: 4, skipped: [] })
    const sessions = (await call('sessions.list', { workspaceId: opened.id })).items
    expect(sessions.map((session) => session.turnCount).sort()).toEqual([1, 2, 4, 7])
    const settings = sessions.find((session) => session.turnCount === 7)
    expect(settings?.title).toBe('create settings page that enables to enter OpenAI API key,')
    const page = await call('transcript.page', { sessionId: settings?.id ?? '', limit: 500 })
    expect(page.items.map((message) => message.role)).toEqual(Array.from({ length: 7 }, () => ['user', 'assistant']).flat())
    expect(page.items[0]?.content).toBe('create settings page that enables to enter OpenAI API key, and switch from light to dark mode')
    expect(hashes(appData)).toEqual(before)
  })

  it('names the model a composer ran on where Cursor keeps it: "default" in modelConfig, the model on the prompts\' bubbles', async () => {
    // Auto mode keeps `modelConfig.modelName: "default"`; the model each request ran on is the
    // `modelInfo` of its bubbles, which Cursor writes on the prompt's bubble.
    const edited = readStoresSpec()
    const modelOf = (id: string) => (id.endsWith('-u1') ? 'claude-4.5-sonnet-thinking' : id.endsWith('-u2') ? 'gpt-5' : null)
    edited.global.cursorDiskKV = edited.global.cursorDiskKV.map(([key, value]) => {
      if (value === null || !key.includes(COMPOSER_A)) return [key, value]
      let parsed: Record<string, unknown> | null
      try {
        parsed = JSON.parse(value) as Record<string, unknown> | null
      } catch {
        return [key, value] // the damaged bubble the fixture keeps on purpose
      }
      if (!parsed) return [key, value]
      if (key.startsWith('composerData:')) parsed.modelConfig = { modelName: 'default', maxMode: false }
      if (key.startsWith('bubbleId:')) {
        delete parsed.modelInfo
        const model = modelOf(key)
        if (model) parsed.modelInfo = { modelName: model }
      }
      return [key, JSON.stringify(parsed)]
    })
    const { workspace, call } = currentSetup({ spec: edited })
    const opened = await call('workspaces.open', { path: workspace })
    await call('imports.run', { workspaceId: opened.id, sources: ['cursor'] })
    const main = (await call('sessions.list', { workspaceId: opened.id })).items.find((session) => session.title === 'Retry fetchJson with backoff')
    expect(main?.model).toBe('gpt-5')
    const items = (await call('transcript.page', { sessionId: main?.id ?? '', limit: 500 })).items
    const byTurn = new Map<number, Set<string | null>>()
    for (const item of items) if (item.role !== 'user' && item.role !== 'tool_result') byTurn.set(item.turn, (byTurn.get(item.turn) ?? new Set()).add(item.model))
    expect([...byTurn.entries()].map(([turn, models]) => [turn, [...models]])).toEqual([[1, ['claude-4.5-sonnet-thinking']], [2, ['gpt-5']]])
  })
})
