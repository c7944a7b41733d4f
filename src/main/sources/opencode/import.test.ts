import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import type { MethodOutput } from '../../../shared/contract'
import { replaceTextInWal } from '../foreign-db/testing/rewrite-text'
import { FIXTURES } from '../testing/claude-home'
import { folderListing } from '../testing/folder-listing'
import { contractCaller, importTestbed, type ContractCall } from '../testing/import-testbed'

const FIXTURE = join(FIXTURES, 'opencode')
const WORKTREE = '/home/dev/weatherly'
const MAIN = 'Add retry with backoff to the HTTP client'
const CHILD = 'Review the retry loop (@general subagent)'

type Sessions = MethodOutput<'sessions.list'>['items']
type Session = Sessions[number]

/** Every file under a folder, for rewriting the recorded worktree in a temporary copy. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

describe('importing OpenCode histories', () => {
  const { tempDir, runtime } = importTestbed('retrace-opencode-')

  /** A temporary OpenCode data folder holding one fixture layout (`storage-v0.15` or `db-v1.2`). */
  function dataFolder(layout: string): string {
    const dir = join(tempDir(), 'opencode')
    cpSync(join(FIXTURE, layout), dir, { recursive: true })
    return dir
  }

  async function importFolder(dir: string, env: NodeJS.ProcessEnv = {}) {
    const call = contractCaller(runtime({}, { env }))
    const workspace = await call('workspaces.open', { path: dir })
    const report = await call('imports.run', { workspaceId: workspace.id, sources: ['opencode'] })
    const sessions = (await call('sessions.list', { workspaceId: workspace.id, limit: 100 })).items
    const byTitle = (title: string): Session => {
      const found = sessions.find((session) => session.title === title)
      if (!found) throw new Error(`no session "${title}" among ${sessions.map((session) => session.title).join(', ')}`)
      return found
    }
    return { call, workspace, report, sessions, byTitle }
  }

  const transcript = async (call: ContractCall, session: Session) => (await call('transcript.page', { sessionId: session.id, transcript: 'display', limit: 500 })).items

  for (const layout of ['storage-v0.15', 'db-v1.2']) {
    it(`${layout}: three sessions, the child below the task call that started it, nothing written`, async () => {
      const dir = dataFolder(layout)
      const before = folderListing(dir)
      const { call, report, sessions, byTitle } = await importFolder(dir)
      expect(report).toMatchObject({ files: 1, sessions: 3, skipped: [] })
      expect(sessions).toHaveLength(3)
      const tree = await call('sessions.tree', { workspaceId: sessions[0]?.workspaceId ?? 0 })
      const main = byTitle(MAIN)
      const child = byTitle(CHILD)
      expect(tree.nodes.find((node) => node.id === child.id)).toMatchObject({ kind: 'sub-agent', parentId: main.id })
      const task = (await transcript(call, main)).find((message) => message.role === 'tool_call' && message.toolName === 'task')
      expect(tree.nodes.find((node) => node.id === child.id)?.forkSeq).toBe(task?.seq)
      // The default title ("New session - <time>") is not taken as a title.
      expect(sessions.filter((session) => session.title.startsWith('New session -'))).toEqual([])
      expect(main).toMatchObject({ model: 'claude-sonnet-4-20250514', turnCount: 4 })
      expect(folderListing(dir)).toEqual(before)
      // Unchanged: not read again.
      expect(await call('imports.run', { workspaceId: main.workspaceId, sources: ['opencode'] })).toMatchObject({ files: 0, sessions: 0 })
    })
  }

  it('storage-v0.15: the transcript — reasoning, tool calls paired with results, errors, usage per step, the /undo', async () => {
    const { call, byTitle } = await importFolder(dataFolder('storage-v0.15'))
    const main = byTitle(MAIN)
    const display = await transcript(call, main)
    expect(display.map((message) => message.role)).toEqual([
      'user', 'reasoning', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'assistant',
      'user', 'tool_call', 'tool_result', 'assistant',
      'user', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'assistant',
      'system', 'user', 'tool_call', 'tool_result', 'tool_call', 'system'
    ])
    // The synthetic text OpenCode adds for an attached file is not part of the prompt; the file is an attachment.
    expect(display[0]?.content).toBe('Add retry with exponential backoff to the GET helper in src/http.ts')
    const calls = display.filter((message) => message.role === 'tool_call')
    const results = display.filter((message) => message.role === 'tool_result')
    expect(calls.map((message) => message.toolName)).toEqual(['read', 'edit', 'task', 'bash', 'write', 'bash', 'read', 'edit', 'bash'])
    // Every call has its result but the bash still running when the answer was interrupted.
    expect(results.map((message) => message.toolCallId)).toEqual(calls.slice(0, 8).map((message) => message.toolCallId))
    expect(results.filter((message) => message.isError).map((message) => message.content)).toEqual(['Error: File not found: /home/dev/weatherly/HISTORY.md'])
    expect(display.at(-1)?.content).toBe('OpenCode: the answer was interrupted')
    expect(display[21]?.content).toMatch(/^OpenCode: \/undo took the session back/)
    // Usage: six step-finish parts, and the interrupted message's own totals (it has no steps).
    expect(main.usage).toMatchObject({ inputTokens: 81_390 + 15_000, outputTokens: 934, cacheReadTokens: 74_892 + 14_600, cacheWriteTokens: 512 })
    expect(main.usage.costUsd).toBeCloseTo(0.044, 6)
    const detail = await call('sessions.get', { sessionId: main.id })
    expect(detail.checkpoints.map((checkpoint) => [checkpoint.turn, checkpoint.invalidated])).toEqual([[1, false], [2, false], [3, false], [4, true]])
    const child = await transcript(call, byTitle(CHILD))
    expect(child.map((message) => message.role)).toEqual(['user', 'tool_call', 'tool_result', 'assistant'])
  })

  it('both layouts give the same transcripts', async () => {
    const folder = await importFolder(dataFolder('storage-v0.15'))
    const database = await importFolder(dataFolder('db-v1.2'))
    for (const title of [MAIN, CHILD]) {
      const strip = (messages: Awaited<ReturnType<typeof transcript>>) => messages.map((message) => [message.role, message.content, message.toolName ?? null, message.toolCallId ?? null, message.isError ?? null])
      expect(strip(await transcript(database.call, database.byTitle(title)))).toEqual(strip(await transcript(folder.call, folder.byTitle(title))))
      expect(database.byTitle(title).usage).toEqual(folder.byTitle(title).usage)
    }
  })

  it('a project: only its sessions, found through $XDG_DATA_HOME', async () => {
    const data = tempDir()
    const dir = join(data, 'opencode')
    cpSync(join(FIXTURE, 'storage-v0.15'), dir, { recursive: true })
    const workspace = tempDir()
    for (const file of filesUnder(join(dir, 'storage'))) writeFileSync(file, readFileSync(file, 'utf8').replaceAll(WORKTREE, workspace))
    const { report, sessions } = await importFolder(workspace, { XDG_DATA_HOME: data })
    expect(report).toMatchObject({ files: 1, sessions: 2 })
    expect(sessions.map((session) => session.title).sort()).toEqual([MAIN, CHILD].sort())
  })

  it('a file that is not JSON is skipped with its reason; the rest imports', async () => {
    const dir = dataFolder('storage-v0.15')
    const partDir = join(dir, 'storage', 'part')
    const folder = readdirSync(partDir).sort()[1] ?? ''
    const part = readdirSync(join(partDir, folder)).sort()[1] ?? ''
    const path = join(partDir, folder, part)
    writeFileSync(path, readFileSync(path, 'utf8').slice(0, 40))
    const { call, report, byTitle } = await importFolder(dir)
    expect(report.sessions).toBe(3)
    expect(report.skipped.map((skip) => skip.reason)).toEqual([expect.stringMatching(new RegExp(`^part/${folder}/${part}: not valid JSON`)) as string])
    // That part was the reasoning of the first answer.
    expect((await transcript(call, byTitle(MAIN))).filter((message) => message.role === 'reasoning')).toEqual([])
  })

  it('db-v1.2: a part whose data is not JSON is skipped with its reason; the rest imports', async () => {
    const dir = dataFolder('db-v1.2')
    const wal = replaceTextInWal(join(dir, 'opencode.db'), { part: ['data'] }, '{"type":"reasoning",', '{"type":"reasoning",,')
    onTestFinished(() => wal.close())
    const { call, report, byTitle } = await importFolder(dir)
    expect(report.sessions).toBe(3)
    expect(report.skipped.map((skip) => skip.reason)).toEqual([expect.stringMatching(/^opencode\.db part prt_\w+ \(message msg_\w+\): its data is not a JSON object; skipped$/) as string])
    expect((await transcript(call, byTitle(MAIN))).filter((message) => message.role === 'reasoning')).toEqual([])
    expect((await transcript(call, byTitle(MAIN))).filter((message) => message.role === 'tool_call')).toHaveLength(9)
  })

  it('a database that is not SQLite is a problem, not a crash; the storage folder beside it still imports', async () => {
    const dir = dataFolder('storage-v0.15')
    writeFileSync(join(dir, 'opencode.db'), 'not a database')
    const { report, sessions } = await importFolder(dir)
    expect(sessions).toHaveLength(3)
    expect(report.skipped.map((skip) => skip.reason)).toEqual([expect.stringMatching(/opencode\.db cannot be read/) as string])
  })

  it('storage/ beside opencode.db: the sessions the migration copied come from the database, the others from the folder', async () => {
    const dir = dataFolder('db-v1.2')
    cpSync(join(FIXTURE, 'storage-v0.15', 'storage'), join(dir, 'storage'), { recursive: true })
    // A session OpenCode's migration skipped (sst/opencode#13654): only in the folder.
    const session = { id: 'ses_7fffffffffffLeftBehind0001', version: '1.1.65', projectID: 'global', directory: '/home/dev/notes', title: 'Left behind by the migration', time: { created: 1_760_000_000_000, updated: 1_760_000_001_000 } }
    const message = { id: 'msg_9e0000000001LeftBehind0001', sessionID: session.id, role: 'user', time: { created: 1_760_000_000_500 } }
    const part = { id: 'prt_9e0000000002LeftBehind0001', sessionID: session.id, messageID: message.id, type: 'text', text: 'Is this still here?' }
    for (const [path, value] of [[['session', 'global', session.id], session], [['message', session.id, message.id], message], [['part', message.id, part.id], part]] as const) {
      mkdirSync(join(dir, 'storage', ...path.slice(0, -1)), { recursive: true })
      writeFileSync(join(dir, 'storage', ...path) + '.json', JSON.stringify(value, null, 2))
    }
    const { call, report, sessions, byTitle } = await importFolder(dir)
    expect(report).toMatchObject({ files: 2, sessions: 4, skipped: [] })
    expect(sessions.map((found) => found.title)).toEqual(expect.arrayContaining([CHILD, MAIN, 'Left behind by the migration']))
    expect((await transcript(call, byTitle('Left behind by the migration'))).map((found) => found.content)).toEqual(['Is this still here?'])
  })
})
