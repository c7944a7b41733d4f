import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { folderListing } from '../testing/folder-listing'
import { contractCaller, importTestbed } from '../testing/import-testbed'
import { projectHash } from './discover'
import { promptLogRecords, readPromptLog } from './prompt-log'
import { readPromptLogFile } from './prompt-log-file'

const REAL = join(FIXTURES, 'gemini-cli', 'codemie', 'gemini')
const LOG = readFileSync(join(REAL, 'logs.json'), 'utf8')
const FILE_OPS = 'session-2026-01-16T11-01-file-ops-37b7abef.json'
const EXPLAIN = 'session-2025-12-01T21-45-5b959dae.json'
const EXPLAIN_ID = '5b959dae-8655-4cd1-b10f-720b8c336ea2'
const PROMPTS = ['hi', 'Explain what this is', 'Make a copy of lead_memory.txt name it as lead_gemini.txt and optimize this instructions to be shorter, consice but without loosing functionality']

describe('the real logs.json (Gemini CLI prompt log)', () => {
  it('holds three prompts of one session, each with its time', () => {
    const { entries, problems } = readPromptLog(LOG)
    expect(problems).toEqual([])
    expect(entries.map((entry) => [entry.sessionId, entry.messageId, entry.message])).toEqual(PROMPTS.map((text, i) => [EXPLAIN_ID, i, text]))
    const records = promptLogRecords(EXPLAIN_ID, entries)
    // Metadata, the system line saying what is missing, three prompts.
    expect(records.map((record) => (record.kind === 'message' ? record.role : record.kind))).toEqual(['session-meta', 'system', 'user', 'user', 'user'])
  })

  it('skips an entry Gemini CLI itself would drop, with a reason, and keeps the rest', () => {
    const damaged = JSON.stringify([...(JSON.parse(LOG) as unknown[]), { sessionId: EXPLAIN_ID, messageId: 'x', message: 'bad' }])
    const { entries, problems } = readPromptLog(damaged)
    expect(entries).toHaveLength(3)
    expect(problems.map((problem) => problem.reason)).toEqual(['Gemini CLI logs.json entry 3 lacks sessionId, messageId, type, message or timestamp'])
    expect(readPromptLog(LOG.slice(0, 200)).problems.map((problem) => problem.reason)).toEqual(['Gemini CLI logs.json is not valid JSON (cut short?)'])
  })

  it('leaves a session logged under a minute ago for later: its recording may be on its way', () => {
    const project = mkdtempSync(join(tmpdir(), 'retrace-gemini-log-'))
    cpSync(join(REAL, 'logs.json'), join(project, 'logs.json'))
    const file = { source: 'gemini-cli' as const, path: join(project, 'logs.json'), sessionId: 'x', role: 'main' as const, cwd: null, backupDir: null }
    const lastPrompt = Date.parse('2025-12-01T21:48:06.046Z')
    expect(readPromptLogFile(file, lastPrompt + 30_000).sessions).toHaveLength(0)
    expect(readPromptLogFile(file, lastPrompt + 61_000).sessions.map((session) => session.key)).toEqual([`prompt-log:${EXPLAIN_ID}`])
    rmSync(project, { recursive: true })
    expect(readPromptLogFile(file).problems[0]).toMatch(/^Gemini CLI logs\.json not readable/)
  })
})

describe('importing sessions that only logs.json knows', () => {
  const { tempDir, runtime } = importTestbed('retrace-gemini-log-')

  /** A workspace whose project folder holds the real logs.json and the given real recordings. */
  function setUp(recordings: string[]) {
    const workspace = tempDir()
    const home = tempDir()
    const project = join(home, '.gemini', 'tmp', projectHash(workspace))
    mkdirSync(join(project, 'chats'), { recursive: true })
    cpSync(join(REAL, 'logs.json'), join(project, 'logs.json'))
    for (const name of recordings) cpSync(join(REAL, name), join(project, 'chats', name))
    return { workspace, home, project, call: contractCaller(runtime({}, { env: { GEMINI_CLI_HOME: home } })) }
  }

  it('shows a logged session without a recording as its prompts, at the times typed', async () => {
    const { workspace, home, call } = setUp([FILE_OPS])
    const before = folderListing(home)
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['gemini-cli'] })
    expect(report).toMatchObject({ files: 2, sessions: 2, skipped: [] })
    expect(folderListing(home)).toEqual(before)
    const sessions = (await call('sessions.list', { workspaceId: opened.id, source: 'gemini-cli' })).items
    expect(sessions.map((s) => [s.title, s.turnCount, s.messageCount]).sort()).toEqual([
      ['hi', 3, 4],
      ['show tools', 5, 38]
    ])
    const logged = sessions.find((s) => s.title === 'hi')
    expect(logged?.createdAt).toBe(Date.parse('2025-12-01T21:45:34.356Z'))
    const messages = (await call('transcript.page', { sessionId: logged?.id ?? '', limit: 50 })).items
    expect(messages.map((m) => [m.turn, m.role])).toEqual([
      [0, 'system'],
      [1, 'user'],
      [2, 'user'],
      [3, 'user']
    ])
    expect(messages[0]?.content).toMatch(/^Gemini CLI kept no chat recording of this session/)
    expect(messages.slice(1).map((m) => m.content)).toEqual(PROMPTS)
    expect(messages.slice(1).map((m) => new Date(m.createdAt ?? 0).toISOString())).toEqual(['2025-12-01T21:45:34.356Z', '2025-12-01T21:45:50.882Z', '2025-12-01T21:48:06.046Z'])
  })

  it('reads a recorded session from its recording only: the log adds no session and no prompt', async () => {
    const { workspace, call } = setUp([FILE_OPS, EXPLAIN])
    const opened = await call('workspaces.open', { path: workspace })
    expect(await call('imports.run', { workspaceId: opened.id, sources: ['gemini-cli'] })).toMatchObject({ files: 3, sessions: 2 })
    const sessions = (await call('sessions.list', { workspaceId: opened.id, source: 'gemini-cli' })).items
    expect(sessions.map((s) => [s.title, s.turnCount]).sort()).toEqual([
      ['hi', 3],
      ['show tools', 5]
    ])
    // The recording's own prompt times (5–6 ms after the log's), not the log's.
    const hi = sessions.find((s) => s.title === 'hi')
    const prompts = (await call('transcript.page', { sessionId: hi?.id ?? '', limit: 500 })).items.filter((m) => m.role === 'user')
    expect(new Date(prompts[0]?.createdAt ?? 0).toISOString()).toBe('2025-12-01T21:45:34.362Z')
  })

  it('imports the log again when a prompt is added, replacing the session', async () => {
    const { workspace, project, call } = setUp([])
    const opened = await call('workspaces.open', { path: workspace })
    expect(await call('imports.run', { workspaceId: opened.id, sources: ['gemini-cli'] })).toMatchObject({ files: 1, sessions: 1 })
    const more = [...(JSON.parse(LOG) as unknown[]), { sessionId: EXPLAIN_ID, messageId: 3, type: 'user', message: '/quit', timestamp: '2025-12-01T21:50:00.000Z' }]
    writeFileSync(join(project, 'logs.json'), JSON.stringify(more, null, 2))
    expect(await call('imports.run', { workspaceId: opened.id, sources: ['gemini-cli'] })).toMatchObject({ files: 1, sessions: 1 })
    const sessions = (await call('sessions.list', { workspaceId: opened.id, source: 'gemini-cli' })).items
    // A slash command is a system line, not a turn.
    expect(sessions.map((s) => [s.title, s.turnCount, s.messageCount])).toEqual([['hi', 3, 5]])
  })
})
