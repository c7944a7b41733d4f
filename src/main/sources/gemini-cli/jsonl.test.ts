import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Message } from '../../../shared/contract'
import { FIXTURES } from '../testing/claude-home'
import { contractCaller, importTestbed } from '../testing/import-testbed'
import { folderListing } from '../testing/folder-listing'

const WRITER = join(FIXTURES, 'gemini-cli', 'writer-jsonl', 'chats')
const MAIN_ID = 'c0ffee01-5a1e-4c0d-9e11-2f6a4b7d9e30'

function countRoles(messages: Message[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const message of messages) counts[message.role] = (counts[message.role] ?? 0) + 1
  return counts
}

/** Every file under `dir`, its `/WORKSPACE` placeholder replaced by the workspace path. */
function copyWithWorkspace(from: string, to: string, workspace: string): void {
  mkdirSync(to, { recursive: true })
  for (const name of readdirSync(from)) {
    const path = join(from, name)
    if (statSync(path).isDirectory()) copyWithWorkspace(path, join(to, name), workspace)
    else writeFileSync(join(to, name), readFileSync(path, 'utf8').replaceAll('/WORKSPACE', JSON.stringify(workspace).slice(1, -1)))
  }
}

describe('importing a current Gemini CLI recording (session-*.jsonl, built from its writer)', () => {
  const { tempDir, runtime } = importTestbed('retrace-gemini-jsonl-')

  /** The project folder found through projects.json's slug and its .project_root marker. */
  function setUp() {
    const workspace = tempDir()
    const home = tempDir()
    const gemini = join(home, '.gemini')
    copyWithWorkspace(WRITER, join(gemini, 'tmp', 'my-project', 'chats'), workspace)
    writeFileSync(join(gemini, 'projects.json'), JSON.stringify({ projects: { [workspace]: 'my-project' } }))
    // What the agent left on disk: its rewind took todo.md back; todo.txt was written after.
    writeFileSync(join(workspace, 'notes.txt'), 'alpha\nhello\n')
    writeFileSync(join(workspace, 'todo.txt'), '- buy milk\n')
    const call = contractCaller(runtime({}, { env: { GEMINI_CLI_HOME: home } }))
    return { workspace, home, call }
  }

  it('applies re-appended messages and $set, shows $rewindTo as a branch, links the sub-agent, skips the cut line', async () => {
    const { workspace, home, call } = setUp()
    const before = folderListing(home)
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['gemini-cli'] })
    expect(report).toMatchObject({ files: 2, fileChanges: 3 })
    expect(report.skipped.map((s) => s.reason)).toEqual(['Gemini CLI session line is not JSON (cut short?)'])
    expect(folderListing(home)).toEqual(before)

    const sessions = (await call('sessions.list', { workspaceId: opened.id, source: 'gemini-cli' })).items
    expect(sessions).toHaveLength(3)
    const main = sessions.find((s) => s.title === 'Greeting in notes and a todo list')
    const branch = sessions.find((s) => s.rewoundInAgent)
    const sub = sessions.find((s) => s.title === 'Find every todo file')
    expect([main?.messageCount, main?.turnCount, main?.model, main?.kind]).toEqual([14, 2, 'gemini-2.5-flash', 'main'])
    // g1 counted once (its second copy carries the tokens), g2, g5, g6; input without cached, output with thoughts.
    expect(main?.usage).toMatchObject({ inputTokens: 2400, cacheReadTokens: 3200, outputTokens: 131 })
    expect([branch?.title, branch?.kind, branch?.parentId, branch?.messageCount, branch?.turnCount]).toEqual(['now write the todo list to todo.md', 'branch', main?.id, 9, 2])
    expect([sub?.kind, sub?.parentId, sub?.messageCount]).toEqual(['sub-agent', main?.id, 2])

    const messages = (await call('transcript.page', { sessionId: main?.id ?? '', limit: 100 })).items
    expect(countRoles(messages)).toEqual({ user: 2, reasoning: 1, assistant: 2, tool_call: 4, tool_result: 4, system: 1 })
    expect(messages.find((m) => m.role === 'reasoning')?.content).toBe('**Locating the file**\nnotes.txt holds one line; I will append a greeting.')
    expect(messages.find((m) => m.role === 'system')?.content).toBe('info: Switched to fallback model gemini-2.5-flash')
    expect(messages.find((m) => m.toolName === 'run_shell_command' && m.role === 'tool_call')?.content).toBe('ls')
    const detail = await call('sessions.get', { sessionId: main?.id ?? '' })
    expect(detail.sourceSessionId).toBe(MAIN_ID)
    // The sub-agent hangs at the invoke_agent call whose agentId names its recording.
    const started = messages.find((m) => m.role === 'tool_call' && m.toolName === 'invoke_agent')
    expect((await call('sessions.get', { sessionId: sub?.id ?? '' })).forkSeq).toBe(started?.seq)
  })

  it('journals the FileDiff before/after of replace and write_file, so each turn rewinds and undoes', async () => {
    const { workspace, call } = setUp()
    const opened = await call('workspaces.open', { path: workspace })
    await call('imports.run', { workspaceId: opened.id, sources: ['gemini-cli'] })
    const sessions = (await call('sessions.list', { workspaceId: opened.id, source: 'gemini-cli' })).items
    const main = sessions.find((s) => s.kind === 'main')?.id ?? ''
    const branch = sessions.find((s) => s.rewoundInAgent)?.id ?? ''
    const changes = async (sessionId: string, turn: number) => (await call('changes.ofTurn', { sessionId, turn })).items.map((c) => [c.path, c.op])
    expect(await changes(main, 1)).toEqual([['notes.txt', 'modify']])
    expect(await changes(main, 2)).toEqual([['todo.txt', 'create']])
    expect(await changes(branch, 2)).toEqual([['todo.md', 'create']])

    const plan = await call('rewind.plan', { sessionId: main, turn: 1 })
    expect(plan.items.map((i) => [i.path, i.action, i.conflict]).sort()).toEqual([
      ['notes.txt', 'restore', null],
      ['todo.txt', 'delete', null]
    ])
    const rewound = await call('rewind.apply', { sessionId: main, turn: 1, token: plan.token, choices: [] })
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('alpha\n')
    expect(existsSync(join(workspace, 'todo.txt'))).toBe(false)

    const undoPlan = await call('rewind.planUndo', { rewindId: rewound.rewindId })
    await call('rewind.undo', { rewindId: rewound.rewindId, token: undoPlan.token, choices: [] })
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('alpha\nhello\n')
    expect(readFileSync(join(workspace, 'todo.txt'), 'utf8')).toBe('- buy milk\n')
  })

  it('retrace import --all puts the project projects.json names into its workspace', async () => {
    const workspace = tempDir()
    const home = tempDir()
    copyWithWorkspace(WRITER, join(home, '.gemini', 'tmp', 'my-project', 'chats'), workspace)
    writeFileSync(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [workspace]: 'my-project' } }))
    const rt = runtime({}, { env: { GEMINI_CLI_HOME: home } })
    const report = await rt.imports.importAll({ sources: ['gemini-cli'] })
    expect(report.workspaces.map((w) => w.path)).toEqual([workspace])
    expect(report).toMatchObject({ files: 2, refused: [] })
    const call = contractCaller(rt)
    const id = report.workspaces[0]?.id ?? -1
    expect((await call('sessions.list', { workspaceId: id, source: 'gemini-cli' })).items).toHaveLength(3)
  })

  it('re-imports a recording that grew, keeping the session', async () => {
    const { workspace, home, call } = setUp()
    const opened = await call('workspaces.open', { path: workspace })
    await call('imports.run', { workspaceId: opened.id, sources: ['gemini-cli'] })
    const file = join(home, '.gemini', 'tmp', 'my-project', 'chats', 'session-2026-08-20T10-00-c0ffee01.jsonl')
    const text = readFileSync(file, 'utf8')
    // Gemini appends the rest of the cut line and a new prompt.
    writeFileSync(file, `${text}ini","content":"done"}\n{"id":"u4","timestamp":"2026-08-20T10:05:00.000Z","type":"user","content":"thanks"}\n`)
    const again = await call('imports.run', { workspaceId: opened.id, sources: ['gemini-cli'] })
    expect(again.skipped).toEqual([])
    const main = (await call('sessions.list', { workspaceId: opened.id, source: 'gemini-cli' })).items.find((s) => s.kind === 'main')
    const sessions = (await call('sessions.list', { workspaceId: opened.id, source: 'gemini-cli' })).items
    expect(sessions).toHaveLength(3)
    expect([main?.messageCount, main?.turnCount]).toEqual([16, 3])
    // The rewound line is split off again, and the sub-agent stays below the session written anew.
    expect(sessions.find((s) => s.rewoundInAgent)).toMatchObject({ parentId: main?.id, messageCount: 9 })
    const sub = sessions.find((s) => s.kind === 'sub-agent')
    expect(sub?.parentId).toBe(main?.id)
    const started = (await call('transcript.page', { sessionId: main?.id ?? '', limit: 100 })).items.find((m) => m.toolName === 'invoke_agent')
    expect((await call('sessions.get', { sessionId: sub?.id ?? '' })).forkSeq).toBe(started?.seq)
  })
})
