import { appendFileSync, mkdirSync, readFileSync, renameSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Message } from '../../shared/contract'
import type { Runtime } from '../runtime/runtime'
import { databaseOf } from '../store/raw-database'
import { ClaudeHome, ClaudeSessionFile, FIXTURES } from './testing/claude-home'
import { contractCaller, importTestbed } from './testing/import-testbed'
import { SPOTTER_CWD, SPOTTER_SESSION } from './testing/session-copies'

const { tempDir, runtime } = importTestbed('retrace-kept-history-')

/** The real sanitised Codex Desktop rollout of 2,722 lines (fixtures/codex/localpush). */
const ROLLOUT = 'sessions/2026/02/23/rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl'

/** Every message of a session as the window pages it. */
async function transcript(rt: Runtime, sessionId: string): Promise<Message[]> {
  const call = contractCaller(rt)
  const messages: Message[] = []
  let cursor: string | null = null
  do {
    const page: { items: Message[]; afterCursor: string | null } = await call('transcript.page', { sessionId, limit: 500, ...(cursor ? { cursor } : {}) })
    messages.push(...page.items)
    cursor = page.afterCursor
  } while (cursor)
  return messages
}

/** What the agent's file no longer holds: messages kept, marked so. */
function notInFile(messages: Message[]): Message[] {
  return messages.filter((message) => message.sourceRef !== null && 'file' in message.sourceRef && message.sourceRef.notInFile === true)
}

/** What a restore or a sync tool does: the new content written beside the file, then renamed over it (a new inode). */
function replaceFile(path: string, content: string): void {
  const before = statSync(path).ino
  writeFileSync(`${path}.restoring`, content)
  renameSync(`${path}.restoring`, path)
  expect(statSync(path).ino).not.toBe(before)
}

function journalEntries(rt: Runtime): number {
  return (databaseOf(rt.store).prepare('SELECT count(*) AS n FROM journal_entries').get() as { n: number }).n
}

const lineText = (lines: string[]) => lines.map((line) => `${line}\n`).join('')

/** The workspace's one main session. */
async function onlySession(rt: Runtime, workspaceId: number): Promise<string> {
  const { items } = await contractCaller(rt)('sessions.list', { workspaceId })
  const main = items.filter((session) => session.kind === 'main')
  expect(main).toHaveLength(1)
  return main[0]?.id as string
}

describe('a session file that gets shorter or is replaced keeps what was imported (R31)', () => {
  it('keeps all 1,000 messages of a Claude Code session cut to 500, marks the 500 it lost, and search still finds them', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const workspace = tempDir()
    const session = home.session(workspace)
    let halfway = 0
    for (let i = 0; i < 500; i++) {
      session.prompt(`question${i}`)
      session.say(`answer${i}`)
      if (i === 249) halfway = statSync(session.path).size
    }
    const rt = runtime({ claude: home.root })
    const workspaceId = rt.store.workspaces.open(workspace, 'ws')
    await rt.imports.importWorkspace(workspaceId)
    const id = await onlySession(rt, workspaceId)
    expect(await transcript(rt, id)).toHaveLength(1000)

    // Cut short in place (same inode): the file now holds the first 250 turns only.
    truncateSync(session.path, halfway)
    await rt.imports.importWorkspace(workspaceId)

    const messages = await transcript(rt, await onlySession(rt, workspaceId))
    expect(messages).toHaveLength(1000)
    expect(await onlySession(rt, workspaceId)).toBe(id)
    const marked = notInFile(messages)
    expect(marked).toHaveLength(500)
    expect(marked.map((message) => message.content)).toEqual(Array.from({ length: 250 }, (_, i) => [`question${i + 250}`, `answer${i + 250}`]).flat())
    const { items } = await contractCaller(rt)('search.messages', { query: 'answer377', workspaceId })
    expect(items.map((hit) => hit.sessionId)).toEqual([id])

    // Read again with nothing changed: nothing more is marked, nothing added.
    expect(await rt.imports.importWorkspace(workspaceId)).toMatchObject({ messages: 0, sessions: 0 })
    expect(notInFile(await transcript(rt, id))).toHaveLength(500)
  })

  it('keeps a real Claude Code session whose older copy was restored and then written on: new lines added, none lost', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const folder = home.addFixtureProject(join(FIXTURES, 'claude-code/spotter/projects-dir'), SPOTTER_CWD)
    const path = join(folder, `${SPOTTER_SESSION}.jsonl`)
    const rt = runtime({ claude: home.root })
    const workspaceId = rt.store.workspaces.open(SPOTTER_CWD, 'spotter')
    await rt.imports.importWorkspace(workspaceId)
    const id = await onlySession(rt, workspaceId)
    const before = await transcript(rt, id)
    const usage = (await contractCaller(rt)('sessions.get', { sessionId: id })).usage
    const journaled = journalEntries(rt)
    expect(journaled).toBeGreaterThan(0)

    // The copy of an hour ago: the first half of its lines. Then the agent writes on.
    const lines = readFileSync(path, 'utf8').split('\n').filter((line) => line !== '')
    const older = lines.slice(0, Math.floor(lines.length / 2))
    replaceFile(path, lineText(older))
    const onCopy = runtime({ claude: home.root })
    const copyId = onCopy.store.workspaces.open(SPOTTER_CWD, 'spotter')
    await onCopy.imports.importWorkspace(copyId)
    const heldByCopy = (await transcript(onCopy, await onlySession(onCopy, copyId))).length
    const writer = new ClaudeSessionFile(path, join(home.root, 'file-history', SPOTTER_SESSION), SPOTTER_SESSION, SPOTTER_CWD)
    writer.rewindTo((JSON.parse(older.at(-1) ?? '{}') as { uuid: string }).uuid)
    writer.prompt('after the restore, pelican')
    writer.say('written on the restored copy, albatross')
    await rt.imports.importWorkspace(workspaceId)

    expect(await onlySession(rt, workspaceId)).toBe(id)
    const after = await transcript(rt, id)
    expect(after).toHaveLength(before.length + 2)
    // Every message imported before is still there, in its place, with the same id.
    expect(after.slice(0, before.length).map(({ id, seq, role, content }) => ({ id, seq, role, content }))).toEqual(before.map(({ id, seq, role, content }) => ({ id, seq, role, content })))
    expect(after.slice(before.length).map((message) => message.content)).toEqual(['after the restore, pelican', 'written on the restored copy, albatross'])
    expect(notInFile(after)).toHaveLength(before.length - heldByCopy)
    expect(notInFile(after).every((message) => message.seq >= heldByCopy)).toBe(true)
    const call = contractCaller(rt)
    expect((await call('search.messages', { query: 'albatross', workspaceId })).items).toHaveLength(1)
    // What the lines read twice did is not done twice: their file changes, their usage.
    expect(journalEntries(rt)).toBe(journaled)
    expect((await call('sessions.get', { sessionId: id })).usage).toEqual({ ...usage, inputTokens: usage.inputTokens + 10, outputTokens: usage.outputTokens + 5, costUsd: expect.anything() as number })
  })

  it('reads a Claude Code session with a rewind inside the agent again into the same main session and branch, adding nothing', async () => {
    const workspace = tempDir()
    writeFileSync(join(workspace, 'notes.txt'), 'alpha\nbeta\n')
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const session = home.session(workspace)
    session.prompt('write a todo list')
    session.write('todo.md', '- beta\n', null)
    const endOfTurn1 = session.say('Done: todo.md')
    session.prompt('make beta louder', { 'notes.txt': 'alpha\nbeta\n', 'todo.md': '- beta\n' })
    session.edit('notes.txt', 'alpha\nbeta\n', 'beta', 'BETA')
    session.rewindTo(endOfTurn1)
    session.prompt('no: write a plan instead', { 'notes.txt': 'alpha\nbeta\n', 'todo.md': '- beta\n' })
    session.write('plan.md', '1. beta\n', null)
    const rt = runtime({ claude: home.root })
    const call = contractCaller(rt)
    const { id: workspaceId } = await call('workspaces.open', { path: workspace })
    await call('imports.run', { workspaceId })
    const listed = async () => (await call('sessions.list', { workspaceId })).items.map(({ id, kind, parentId, messageCount, turnCount }) => ({ id, kind, parentId, messageCount, turnCount }))
    const before = await listed()
    expect(before.map((item) => item.kind).sort()).toEqual(['branch', 'main'])
    const journaled = journalEntries(rt)

    // A sync tool writes it back with a field added to every line: other bytes, the same records.
    const lines = readFileSync(session.path, 'utf8').split('\n').filter((line) => line !== '')
    replaceFile(session.path, lineText(lines.map((line) => JSON.stringify({ ...(JSON.parse(line) as object), syncedBy: 'a sync tool' }))))
    expect(await call('imports.run', { workspaceId })).toMatchObject({ sessions: 0, messages: 0, fileChanges: 0 })
    expect(await listed()).toEqual(before)
    for (const { id } of before) expect(notInFile(await transcript(rt, id))).toEqual([])
    expect(journalEntries(rt)).toBe(journaled)
  })

  it('keeps a real Codex rollout cut short, marks what it lost, and finds it', async () => {
    const codex = join(tempDir(), 'codex')
    const path = join(codex, ROLLOUT)
    mkdirSync(dirname(path), { recursive: true })
    const lines = readFileSync(join(FIXTURES, 'codex/localpush', ROLLOUT), 'utf8').split('\n').filter((line) => line !== '')
    writeFileSync(path, lineText(lines))
    const rt = runtime({ codex })
    const workspaceId = (await rt.imports.importAll()).workspaces[0]?.id as number
    const id = await onlySession(rt, workspaceId)
    const before = await transcript(rt, id)

    const half = lines.slice(0, Math.floor(lines.length / 2))
    truncateSync(path, Buffer.byteLength(lineText(half)))
    await rt.imports.importAll()
    const clean = runtime({ codex })
    const cleanWorkspace = (await clean.imports.importAll()).workspaces[0]?.id as number
    const heldByHalf = (await transcript(clean, await onlySession(clean, cleanWorkspace))).length

    expect(await onlySession(rt, workspaceId)).toBe(id)
    const after = await transcript(rt, id)
    expect(after.map(({ id, role, content }) => ({ id, role, content }))).toEqual(before.map(({ id, role, content }) => ({ id, role, content })))
    expect(notInFile(after)).toHaveLength(before.length - heldByHalf)
    expect(notInFile(after).map((message) => message.seq)).toEqual(before.slice(heldByHalf).map((message) => message.seq))
    // The fixture's texts are redacted as "[REDACTED_TEXT len=N sha=H]": H names the original text.
    const lost = notInFile(after).find((message) => message.role === 'assistant' && /sha=[0-9a-f]{8}/.test(message.content))
    const word = /sha=([0-9a-f]{8})/.exec(lost?.content ?? '')?.[1] ?? 'missing'
    const { items } = await contractCaller(rt)('search.messages', { query: word, limit: 100 })
    expect(items.map((hit) => hit.messageId)).toContain(lost?.id)
  })

  it('keeps a real Codex rollout whose older copy was restored, then grown back and written on: nothing twice, nothing lost', async () => {
    const codex = join(tempDir(), 'codex')
    const path = join(codex, ROLLOUT)
    mkdirSync(dirname(path), { recursive: true })
    const lines = readFileSync(join(FIXTURES, 'codex/localpush', ROLLOUT), 'utf8').split('\n').filter((line) => line !== '')
    writeFileSync(path, lineText(lines))
    const rt = runtime({ codex })
    const workspaceId = (await rt.imports.importAll()).workspaces[0]?.id as number
    const id = await onlySession(rt, workspaceId)
    const before = await transcript(rt, id)
    const usage = (await contractCaller(rt)('sessions.get', { sessionId: id })).usage
    expect(usage.inputTokens).toBeGreaterThan(0)

    // An older copy restored (a new inode), read; then the rest of the lines come back (a sync
    // finishing), then one new prompt.
    replaceFile(path, lineText(lines.slice(0, 1000)))
    await rt.imports.importAll()
    appendFileSync(path, lineText(lines.slice(1000)))
    const prompt = { timestamp: '2026-02-24T09:00:00.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'after the restore, cormorant', images: [], local_images: [], text_elements: [] } }
    appendFileSync(path, lineText([JSON.stringify(prompt)]))
    await rt.imports.importAll()

    expect(await onlySession(rt, workspaceId)).toBe(id)
    const after = await transcript(rt, id)
    expect(after.slice(0, before.length).map(({ id, role, content }) => ({ id, role, content }))).toEqual(before.map(({ id, role, content }) => ({ id, role, content })))
    expect(after.slice(before.length).map(({ role, content }) => ({ role, content }))).toEqual([{ role: 'user', content: 'after the restore, cormorant' }])
    expect(notInFile(after)).toEqual([])
    // The token counts read twice are counted once.
    expect((await contractCaller(rt)('sessions.get', { sessionId: id })).usage).toEqual(usage)
  })
})

describe('a session file replaced by an identical copy (R31)', () => {
  it('keeps its Claude Code session id and its fork\'s parent, and reads nothing again', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const workspace = tempDir()
    const parent = home.session(workspace)
    parent.prompt('plan the work')
    const forkPoint = parent.say('here is the plan')
    parent.prompt('do it the first way')
    parent.say('done the first way')
    const fork = home.session(workspace)
    fork.raw(readFileSync(parent.path, 'utf8').split('\n').slice(0, 3).join('\n'))
    fork.forkedFrom = { sessionId: parent.sessionId, messageUuid: forkPoint }
    fork.prompt('do it the second way')
    const rt = runtime({ claude: home.root })
    const workspaceId = rt.store.workspaces.open(workspace, 'ws')
    await rt.imports.importWorkspace(workspaceId)
    const call = contractCaller(rt)
    const sessions = async () => (await call('sessions.list', { workspaceId })).items.map(({ id, kind, parentId }) => ({ id, kind, parentId }))
    const listed = await sessions()
    const main = listed.find((session) => session.kind === 'main')
    expect(listed.find((session) => session.kind === 'branch')?.parentId).toBe(main?.id)

    // rsync, a backup restore or a sync tool: the same bytes, a new inode.
    replaceFile(parent.path, readFileSync(parent.path, 'utf8'))
    expect(await rt.imports.importWorkspace(workspaceId)).toMatchObject({ sessions: 0, messages: 0 })
    expect(await sessions()).toEqual(listed)
    expect(notInFile(await transcript(rt, main?.id as string))).toEqual([])
  })

  it('keeps a real Codex rollout\'s session id and reads nothing again', async () => {
    const codex = join(tempDir(), 'codex')
    const path = join(codex, ROLLOUT)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, readFileSync(join(FIXTURES, 'codex/localpush', ROLLOUT)))
    const rt = runtime({ codex })
    const workspaceId = (await rt.imports.importAll()).workspaces[0]?.id as number
    const id = await onlySession(rt, workspaceId)
    const before = await transcript(rt, id)

    replaceFile(path, readFileSync(path, 'utf8'))
    expect(await rt.imports.importAll()).toMatchObject({ sessions: 0, messages: 0 })
    expect(await onlySession(rt, workspaceId)).toBe(id)
    expect((await transcript(rt, id)).map((message) => message.id)).toEqual(before.map((message) => message.id))
  })
})
