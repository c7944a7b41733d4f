import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { replaceTextInWal } from '../foreign-db/testing/rewrite-text'
import { FIXTURES } from '../testing/claude-home'
import { folderListing } from '../testing/folder-listing'
import { contractCaller, importTestbed } from '../testing/import-testbed'
import { openCodeRoots } from './discover'
import { isKiloStore } from './kilo'

const WORKTREE = '/home/dev/pomodoro'
// What the fixture's tools wrote (fixtures/kilo-cli/make-fixtures.mjs).
const TIMER_BEFORE = 'export class Timer {\n  start(): void {\n    this.running = true\n  }\n  running = false\n}\n'
const TIMER_AFTER = 'export class Timer {\n  start(): void {\n    this.running = true\n  }\n  pause(): void {\n    this.running = false\n  }\n  running = false\n}\n'
const CHANGELOG = '# Changelog\n\n- Timer: pause()\n'
const MAIN = 'Add pause to the timer (Kilo CLI)'
const CHILD = 'Check pause() (@general subagent) (Kilo CLI)'
const UNTITLED = 'What does src/timer.ts export? (Kilo CLI)'
/** The columns of kilo.db that hold the project's path. */
const DB_TEXT = { project: ['worktree'], session: ['directory'], message: ['data'], part: ['data'] } as const

describe('where the Kilo CLI keeps its data', () => {
  it('$XDG_DATA_HOME/kilo, else ~/.local/share/kilo, beside OpenCode’s; the folder of $KILO_DB too', () => {
    expect(openCodeRoots({ HOME: '/home/ada' })).toEqual(['/home/ada/.local/share/opencode', '/home/ada/.local/share/kilo'])
    expect(openCodeRoots({ HOME: '/home/ada', XDG_DATA_HOME: '/x' })).toEqual(['/x/opencode', '/x/kilo'])
    expect(openCodeRoots({ HOME: '/home/ada', KILO_DB: '/srv/k/mine.db' })).toContain('/srv/k')
    // Relative to Kilo's data folder; `:memory:` is no folder.
    expect(openCodeRoots({ HOME: '/h', KILO_DB: 'sub/k.db' })).toEqual(['/h/.local/share/opencode', '/h/.local/share/kilo', '/h/.local/share/kilo/sub'])
    expect(openCodeRoots({ HOME: '/h', KILO_DB: ':memory:' })).toHaveLength(2)
    expect([isKiloStore('/d/kilo/kilo.db'), isKiloStore('/d/x/kilo-dev.db'), isKiloStore('/d/kilo/storage'), isKiloStore('/d/opencode/opencode.db')]).toEqual([true, true, true, false])
  })
})

describe('importing Kilo CLI sessions (through the OpenCode source)', () => {
  const { tempDir, runtime } = importTestbed('retrace-kilo-')

  /** A temporary `$XDG_DATA_HOME/kilo` holding the fixture, its paths made `workspace` in a WAL kept open. */
  function kiloData(workspace: string) {
    const data = tempDir()
    const dir = join(data, 'kilo')
    cpSync(join(FIXTURES, 'kilo-cli', 'db-v7', 'kilo'), dir, { recursive: true })
    const wal = replaceTextInWal(join(dir, 'kilo.db'), DB_TEXT, WORKTREE, workspace)
    onTestFinished(() => wal.close())
    return { data, dir }
  }

  async function importWorkspace(workspace: string, data: string) {
    const call = contractCaller(runtime({}, { env: { XDG_DATA_HOME: data } }))
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['opencode'] })
    const sessions = (await call('sessions.list', { workspaceId: opened.id, limit: 100 })).items
    const byTitle = (title: string) => {
      const found = sessions.find((session) => session.title === title)
      if (!found) throw new Error(`no session "${title}" among ${sessions.map((session) => session.title).join(', ')}`)
      return found
    }
    return { call, opened, report, sessions, byTitle }
  }

  it('a workspace’s sessions: titled as Kilo’s, turns, tool calls with results, usage, the sub-agent; nothing written', async () => {
    const workspace = tempDir()
    const { data, dir } = kiloData(workspace)
    const before = folderListing(dir)
    const { call, opened, report, sessions, byTitle } = await importWorkspace(workspace, data)
    expect(report).toMatchObject({ files: 1, sessions: 3, skipped: [] })
    expect(sessions.map((session) => session.title).sort()).toEqual([CHILD, MAIN, UNTITLED].sort())
    const main = byTitle(MAIN)
    expect(main).toMatchObject({ model: 'anthropic/claude-sonnet-4.5', turnCount: 2 })
    // Seven step-finish parts of the main session; reasoning tokens count as output.
    expect(main.usage).toMatchObject({ inputTokens: 41_500, outputTokens: 445, cacheReadTokens: 36_900, cacheWriteTokens: 300 })
    expect(main.usage.costUsd).toBeCloseTo(0.0261, 6)
    const display = (await call('transcript.page', { sessionId: main.id, transcript: 'display', limit: 500 })).items
    expect(display.map((message) => message.role)).toEqual([
      'user', 'reasoning', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'assistant',
      'user', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'assistant'
    ])
    const calls = display.filter((message) => message.role === 'tool_call')
    expect(calls.map((message) => message.toolName)).toEqual(['read', 'edit', 'bash', 'write', 'task'])
    expect(display.filter((message) => message.role === 'tool_result').map((message) => message.toolCallId)).toEqual(calls.map((message) => message.toolCallId))
    const tree = await call('sessions.tree', { workspaceId: opened.id })
    const child = tree.nodes.find((node) => node.id === byTitle(CHILD).id)
    expect(child).toMatchObject({ kind: 'sub-agent', parentId: main.id, forkSeq: calls[4]?.seq })
    expect(folderListing(dir)).toEqual(before)
  })

  it('the edit and the write make turns rewindable; the rewind undoes', async () => {
    const workspace = tempDir()
    const { data, dir } = kiloData(workspace)
    mkdirSync(join(workspace, 'src'))
    writeFileSync(join(workspace, 'src', 'timer.ts'), TIMER_AFTER)
    writeFileSync(join(workspace, 'CHANGELOG.md'), CHANGELOG)
    const before = folderListing(dir)
    const { call, report, byTitle } = await importWorkspace(workspace, data)
    expect(report.fileChanges).toBe(2)
    const sessionId = byTitle(MAIN).id
    const plan = await call('rewind.plan', { sessionId, turn: 1 })
    expect(plan.items.map((item) => [item.path, item.action, item.conflict]).sort()).toEqual([['CHANGELOG.md', 'delete', null], ['src/timer.ts', 'restore', null]])
    const rewound = await call('rewind.apply', { sessionId, turn: 1, token: plan.token, choices: [] })
    expect(readFileSync(join(workspace, 'src', 'timer.ts'), 'utf8')).toBe(TIMER_BEFORE)
    expect(existsSync(join(workspace, 'CHANGELOG.md'))).toBe(false)
    const undoPlan = await call('rewind.planUndo', { rewindId: rewound.rewindId })
    await call('rewind.undo', { rewindId: rewound.rewindId, token: undoPlan.token, choices: [] })
    expect(readFileSync(join(workspace, 'src', 'timer.ts'), 'utf8')).toBe(TIMER_AFTER)
    expect(readFileSync(join(workspace, 'CHANGELOG.md'), 'utf8')).toBe(CHANGELOG)
    expect(folderListing(dir)).toEqual(before)
  })

  it('the storage/ folder of Kilo builds before kilo.db (OpenCode’s layout), its folder opened as the workspace', async () => {
    const dir = join(tempDir(), 'kilo')
    cpSync(join(FIXTURES, 'opencode', 'storage-v0.15', 'storage'), join(dir, 'storage'), { recursive: true })
    const before = folderListing(dir)
    const { report, sessions } = await importWorkspace(dir, tempDir())
    expect(report).toMatchObject({ files: 1, sessions: 3, skipped: [] })
    // OpenCode's fixture sessions, marked as the Kilo CLI's by the folder they are in.
    expect(sessions.map((session) => session.title).sort()).toEqual(
      ['Add retry with backoff to the HTTP client (Kilo CLI)', 'Review the retry loop (@general subagent) (Kilo CLI)', 'What does this folder hold? (Kilo CLI)'].sort()
    )
    expect(folderListing(dir)).toEqual(before)
  })

  it('a part whose data is not JSON is skipped with its reason, naming kilo.db; the rest imports', async () => {
    const workspace = tempDir()
    const { data } = kiloData(workspace)
    const wal = replaceTextInWal(join(data, 'kilo', 'kilo.db'), { part: ['data'] }, '{"type":"reasoning",', '{"type":"reasoning",,')
    onTestFinished(() => wal.close())
    const { call, report, byTitle } = await importWorkspace(workspace, data)
    expect(report.sessions).toBe(3)
    expect(report.skipped.map((skip) => skip.reason)).toEqual([expect.stringMatching(/^kilo\.db part prt_\w+ \(message msg_\w+\): its data is not a JSON object; skipped$/) as string])
    const display = (await call('transcript.page', { sessionId: byTitle(MAIN).id, transcript: 'display', limit: 500 })).items
    expect(display.filter((message) => message.role === 'reasoning')).toEqual([])
    expect(display.filter((message) => message.role === 'tool_call')).toHaveLength(5)
  })
})
