import { createHash } from 'node:crypto'
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contractCaller, importTestbed } from '../testing/import-testbed'
import { cursorTimestamp } from './agent-transcript'
import { parseRoot } from './cli-store'
import { chatsHash } from './cli-discover'
import { buildCliHome, readChatSpec } from './testing/cli-home'
import { buildCurrentStores } from './testing/cursor-stores'

const { tempDir, runtime } = importTestbed('retrace-cursor-cli-')
const spec = readChatSpec()
const FLAT = '0b8e4f2d-6a1c-4d3e-b5f7-9a2c8e1d4b60'

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

function setup() {
  const workspace = tempDir()
  const home = tempDir()
  const built = buildCliHome(home, workspace)
  const call = contractCaller(runtime({}, { env: { HOME: home, VSCODE_APPDATA: join(home, 'no-editor') } }))
  return { workspace, home, built, call }
}

describe('importing Cursor agent transcripts and Cursor CLI chats (~/.cursor)', () => {
  it('reads both transcript layouts with sub-agents, and the CLI chat store, matched to the workspace', async () => {
    const { workspace, home, built, call } = setup()
    // The flat transcript's meta.json (no store: an editor agent's) names it; a transcript of the
    // CLI chat itself is left for its store.
    const sidecar = join(home, '.cursor/chats', chatsHash(workspace), FLAT)
    mkdirSync(sidecar, { recursive: true })
    writeFileSync(join(sidecar, 'meta.json'), JSON.stringify({ schemaVersion: 1, hasConversation: true, title: 'What parseArgs returns', createdAtMs: 1779820000000, updatedAtMs: 1779820060000 }))
    copyFileSync(join(built.transcripts, `${FLAT}.jsonl`), join(built.transcripts, `${spec.chatId}.jsonl`))
    const before = hashes(home)
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['cursor'] })
    // The nested transcript, its sub-agent, the flat one, the plain-text one, the CLI chat.
    expect(report.sessions).toBe(5)
    expect(report.skipped.map((skip) => skip.reason).sort()).toEqual([expect.stringMatching(/^line 10 is not JSON/), expect.stringMatching(new RegExp(`^message [0-9a-f]{64} of chat ${spec.chatId} is missing from its store$`))])
    const sessions = (await call('sessions.list', { workspaceId: opened.id })).items
    expect(sessions.map((session) => session.turnCount).sort()).toEqual([1, 1, 2, 2, 2])
    const flat = sessions.find((session) => session.title === 'What parseArgs returns')
    expect(flat?.createdAt).toBe(1779820000000)

    const tree = await call('sessions.tree', { workspaceId: opened.id })
    const sub = tree.nodes.find((node) => node.kind === 'sub-agent')
    const main = tree.nodes.find((node) => node.id === sub?.parentId)
    expect(sub).toBeDefined()
    const page = await call('transcript.page', { sessionId: main?.id ?? '', limit: 100 })
    expect(page.items.map((message) => message.role)).toEqual(['user', 'reasoning', 'assistant', 'tool_call', 'tool_call', 'assistant', 'system', 'user', 'tool_call'])
    expect(page.items[0]?.content).toBe('Add a --verbose flag to the CLI')
    expect(page.items[0]?.createdAt).toBe(Date.UTC(2026, 4, 26, 20, 57))
    expect(page.items.filter((message) => message.role === 'tool_call').map((message) => message.toolName)).toEqual(['Read', 'Task', 'Shell'])
    // Its shell command (turn 2, `grep -n verbose README.md`) only reads: no turn is marked.
    const mainDetail = await call('sessions.get', { sessionId: main?.id ?? '' })
    expect(mainDetail.checkpoints.map((checkpoint) => [checkpoint.turn, checkpoint.uncapturedCommands])).toEqual([[1, 0], [2, 0]])

    // The plain-text transcript (2025): thinking, calls with their indented input, results paired by name.
    const text = sessions.find((session) => session.id !== main?.id && session.turnCount === 2 && session.title !== 'Fix the flaky retry test')
    const textPage = await call('transcript.page', { sessionId: text?.id ?? '', limit: 100 })
    expect(textPage.items.map((message) => message.role)).toEqual(['user', 'reasoning', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'assistant', 'user', 'assistant'])
    expect(textPage.items[0]?.content).toBe('Rename fetchJson to getJson everywhere')
    expect(textPage.items[1]?.content).toBe('Find every use first, then rename.')
    expect(textPage.items[2]?.toolInput).toEqual({ pattern: 'fetchJson', path: 'src' })
    expect(textPage.items[3]?.toolCallId).toBe(textPage.items[2]?.toolCallId)
    expect(textPage.items[5]?.content).toBe('exit code 0')
    expect(textPage.items[5]?.toolCallId).toBe(textPage.items[4]?.toolCallId)

    const chat = sessions.find((session) => session.title === 'Fix the flaky retry test')
    expect(chat?.model).toBe('gpt-5')
    const chatPage = await call('transcript.page', { sessionId: chat?.id ?? '', limit: 100 })
    expect(chatPage.items.map((message) => message.role)).toEqual(['system', 'user', 'reasoning', 'assistant', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'assistant', 'user', 'assistant'])
    expect(chatPage.items[1]?.content).toBe('The retry test is flaky, fix it')
    const results = chatPage.items.filter((message) => message.role === 'tool_result')
    expect(results.map((message) => [message.toolCallId, message.isError])).toEqual([['call_run_1', true], ['call_edit_2', false]])
    const chatDetail = await call('sessions.get', { sessionId: chat?.id ?? '' })
    expect(chatDetail.checkpoints.map((checkpoint) => [checkpoint.turn, checkpoint.uncapturedCommands])).toEqual([[1, 1], [2, 0]])

    expect(hashes(home)).toEqual(before)
    expect(await call('imports.run', { workspaceId: opened.id, sources: ['cursor'] })).toMatchObject({ sessions: 0 })
  })

  it("keeps a transcript apart from the editor's composer of the same id", async () => {
    const workspace = tempDir()
    const home = tempDir()
    const appData = tempDir()
    const { transcripts } = buildCliHome(home, workspace)
    buildCurrentStores(appData, workspace)
    const composer = '3f6c2a1e-8b4d-4c7a-9e15-0d2b7f9a4c61'
    copyFileSync(join(transcripts, `${FLAT}.jsonl`), join(transcripts, `${composer}.jsonl`))
    const call = contractCaller(runtime({}, { env: { HOME: home, VSCODE_APPDATA: appData } }))
    const opened = await call('workspaces.open', { path: workspace })
    // 4 composers, 5 transcripts and chats, the copy of the flat transcript under the composer's id.
    expect((await call('imports.run', { workspaceId: opened.id, sources: ['cursor'] })).sessions).toBe(10)
    const sessions = (await call('sessions.list', { workspaceId: opened.id })).items
    expect(sessions.find((session) => session.title === 'Retry fetchJson with backoff')?.turnCount).toBe(2)
  })

  it('leaves out the transcripts and chats of other folders', async () => {
    const { home, call } = setup()
    const other = tempDir()
    const opened = await call('workspaces.open', { path: other })
    expect(await call('imports.run', { workspaceId: opened.id, sources: ['cursor'] })).toMatchObject({ sessions: 0, skipped: [] })
    expect(home).toBeTruthy()
  })

  it('reports a chat store that is not SQLite, and still imports the transcripts', async () => {
    const { workspace, built, call } = setup()
    writeFileSync(built.store, 'not a database')
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['cursor'] })
    expect(report.sessions).toBe(4)
    expect(report.skipped.map((skip) => skip.reason)).toContainEqual(expect.stringContaining(built.store))
  })
})

describe('reading the pieces', () => {
  it("parses Cursor's injected timestamp with its offset", () => {
    expect(cursorTimestamp('Friday, Aug 7, 2026, 10:12 PM (UTC-5)')).toBe(Date.UTC(2026, 7, 8, 3, 12))
    expect(cursorTimestamp('Wednesday, Apr 29, 2026, 12:05 AM (UTC)')).toBe(Date.UTC(2026, 3, 29, 0, 5))
    expect(cursorTimestamp('yesterday')).toBeUndefined()
  })

  it('stops at a root blob it cannot walk, keeping what came before', () => {
    const id = Buffer.alloc(32, 7)
    const root = Buffer.concat([Buffer.from([0x0a, 32]), id, Buffer.from([0x0a, 200, 1])])
    expect(parseRoot(root)).toEqual({ ids: [id.toString('hex')], cwd: null })
  })
})
