import { createHash } from 'node:crypto'
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Runtime } from '../../runtime/runtime'
import { databaseOf } from '../../store/raw-database'
import { encodeProjectFolder } from '../claude-code/project-folder'
import { FIXTURES } from '../testing/claude-home'
import { contractCaller, importTestbed } from '../testing/import-testbed'
import { conversationItems, type ConversationItem } from './conversation'
import { writeNewFile } from './new-file'

const { tempDir, runtime } = importTestbed('retrace-continue-')

// Real sessions: Claude Code (fixtures/claude-code/claude-code-log) and Codex 0.125
// (fixtures/codex/codemie); PROVENANCE.txt beside each.
const CLAUDE_PROJECT = '-Users-dain-workspace-JSSoundRecorder'
const CLAUDE_ID = '7acd37a8-2745-4b58-a8a9-46164b22ad9e'
const CLAUDE_FIXTURE = join(FIXTURES, 'claude-code/claude-code-log', CLAUDE_PROJECT, `${CLAUDE_ID}.jsonl`)
const CODEX_DAY = 'sessions/2026/05/11'
const CODEX_NAME = 'rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl'
const CODEX_ID = '019e1625-789d-76c0-80ab-3724b5ddb799'

/** Every file under the folder and its sha256. */
function hashes(root: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name)
      found.set(relative(root, path), createHash('sha256').update(readFileSync(path)).digest('hex'))
    }
  }
  return found
}

function sessionUid(rt: Runtime, sourceSessionId: string): string {
  const uid = databaseOf(rt.store).prepare('SELECT uid FROM sessions WHERE source_session_id = ?').pluck().get(sourceSessionId) as string | undefined
  if (!uid) throw new Error(`session ${sourceSessionId} was not imported`)
  return uid
}

/** What the window shows of a session, as the conversation an agent would resume (up to `turn`). */
async function conversationOf(rt: Runtime, sessionId: string, turn = Number.MAX_SAFE_INTEGER): Promise<ConversationItem[]> {
  const call = contractCaller(rt)
  const page = await call('transcript.page', { sessionId, limit: 500 })
  const items = page.items.filter((message) => message.turn <= turn)
  expect(page.afterCursor).toBeNull()
  return conversationItems(items)
}

/** The parts an agent resumes: roles, texts, tool calls with input, output and error flag (not times or ids). */
const shape = (items: ConversationItem[]) =>
  items.map((item) => (item.kind === 'tool' ? { kind: item.kind, name: item.name, input: item.input, output: item.output, isError: item.isError, turn: item.turn } : { kind: item.kind, text: item.text, turn: item.turn }))

function claudeHomeWithFixture(): string {
  const root = join(tempDir(), 'claude')
  const folder = join(root, 'projects', CLAUDE_PROJECT)
  mkdirSync(folder, { recursive: true })
  copyFileSync(CLAUDE_FIXTURE, join(folder, `${CLAUDE_ID}.jsonl`))
  return root
}

function codexHomeWithFixture(): string {
  const root = join(tempDir(), 'codex')
  mkdirSync(join(root, CODEX_DAY), { recursive: true })
  copyFileSync(join(FIXTURES, 'codex/codemie', CODEX_DAY, CODEX_NAME), join(root, CODEX_DAY, CODEX_NAME))
  return root
}

describe('continue in the agent', () => {
  it('writes a new Claude Code session that re-imports as the same conversation up to the turn, touching nothing else', async () => {
    const claude = claudeHomeWithFixture()
    const rt = runtime({ claude })
    await rt.imports.importAll()
    const call = contractCaller(rt)
    const original = sessionUid(rt, CLAUDE_ID)
    const detail = await call('sessions.get', { sessionId: original })
    expect(detail.turnCount).toBeGreaterThan(3)
    const before = hashes(claude)

    const written = await call('sessions.continueInAgent', { sessionId: original, turn: 3 })

    expect(written.agent).toBe('claude-code')
    // The fixture's folder is another machine's: the answer says so.
    expect(written).toMatchObject({ cwd: '/Users/dain/workspace/JSSoundRecorder', cwdExists: false })
    expect(written.command).toBe(`cd ${detail.cwd ?? ''} && claude --resume ${written.agentSessionId}`)
    // In the folder Claude Code keeps the project's sessions in (here, the fixture's own).
    expect(relative(claude, written.path)).toBe(join('projects', encodeProjectFolder(detail.cwd ?? ''), `${written.agentSessionId}.jsonl`))
    const after = hashes(claude)
    const added = [...after.keys()].filter((path) => !before.has(path))
    expect(added).toEqual([relative(claude, written.path)])
    for (const [path, hash] of before) expect(after.get(path), path).toBe(hash)

    // Every line names the new session and the folder, as Claude Code's own do.
    const lines = readFileSync(written.path, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(new Set(lines.map((line) => line.sessionId))).toEqual(new Set([written.agentSessionId]))
    expect(new Set(lines.map((line) => line.cwd))).toEqual(new Set([detail.cwd]))

    // Imported back by the real importer: the same conversation, turn for turn.
    await rt.imports.importAll()
    const copy = sessionUid(rt, written.agentSessionId)
    const copyDetail = await call('sessions.get', { sessionId: copy })
    expect(copyDetail.turnCount).toBe(3)
    expect(copyDetail.cwd).toBe(detail.cwd)
    const expected = shape(await conversationOf(rt, original, 3))
    expect(expected.filter((item) => item.kind === 'tool').length).toBeGreaterThan(0)
    expect(shape(await conversationOf(rt, copy))).toEqual(expected)
    expect(written.items).toBe(expected.length)
  })

  it('writes a new Codex rollout that re-imports as the same conversation up to the turn, touching nothing else', async () => {
    const codex = codexHomeWithFixture()
    const rt = runtime({ codex })
    await rt.imports.importAll()
    const call = contractCaller(rt)
    const original = sessionUid(rt, CODEX_ID)
    const detail = await call('sessions.get', { sessionId: original })
    expect(detail.turnCount).toBeGreaterThanOrEqual(2)
    const before = hashes(codex)

    const written = await call('sessions.continueInAgent', { sessionId: original, turn: 1, agent: 'codex' })

    expect(written.command).toMatch(new RegExp(`&& codex resume ${written.agentSessionId}$`))
    expect(relative(codex, written.path)).toMatch(new RegExp(`^sessions/\\d{4}/\\d{2}/\\d{2}/rollout-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-${written.agentSessionId}\\.jsonl$`))
    const after = hashes(codex)
    expect([...after.keys()].filter((path) => !before.has(path))).toEqual([relative(codex, written.path)])
    for (const [path, hash] of before) expect(after.get(path), path).toBe(hash)
    const meta = JSON.parse(readFileSync(written.path, 'utf8').split('\n')[0] ?? '') as { type: string; payload: { id: string; cwd: string } }
    expect(meta).toMatchObject({ type: 'session_meta', payload: { id: written.agentSessionId, cwd: detail.cwd } })

    await rt.imports.importAll()
    const copy = sessionUid(rt, written.agentSessionId)
    expect((await call('sessions.get', { sessionId: copy })).turnCount).toBe(1)
    const expected = shape(await conversationOf(rt, original, 1))
    expect(expected.filter((item) => item.kind === 'tool').length).toBeGreaterThan(0)
    expect(shape(await conversationOf(rt, copy))).toEqual(expected)
  })

  it('writes a Retrace branch of a Claude Code session: the parent up to the fork, then its own turns', async () => {
    const claude = claudeHomeWithFixture()
    const rt = runtime({ claude })
    await rt.imports.importAll()
    const call = contractCaller(rt)
    const original = sessionUid(rt, CLAUDE_ID)
    const { sessionId: branch } = await call('sessions.fork', { sessionId: original, turn: 3 })
    const writer = rt.recorder.resume(branch)
    writer.append({ role: 'user', content: 'Try it the other way instead' })
    writer.append({ role: 'assistant', content: 'Going the other way.' })
    writer.closeTurn()

    const written = await call('sessions.continueInAgent', { sessionId: branch, turn: 3 })
    await rt.imports.importAll()
    const copy = shape(await conversationOf(rt, sessionUid(rt, written.agentSessionId)))
    const parentPart = shape(await conversationOf(rt, original, 2))
    expect(copy).toEqual([...parentPart, { kind: 'user', text: 'Try it the other way instead', turn: 3 }, { kind: 'assistant', text: 'Going the other way.', turn: 3 }])
  })

  it('writes a Retrace branch of a Codex session as a rollout: the parent up to the fork, then its own turns', async () => {
    const codex = codexHomeWithFixture()
    const rt = runtime({ codex })
    await rt.imports.importAll()
    const call = contractCaller(rt)
    const original = sessionUid(rt, CODEX_ID)
    const { sessionId: branch } = await call('sessions.fork', { sessionId: original, turn: 2 })
    const writer = rt.recorder.resume(branch)
    writer.append({ role: 'user', content: 'Keep the default, document it instead' })
    writer.append({ role: 'tool_call', toolName: 'exec_command', toolCallId: 'call_branch_1', toolInput: { cmd: 'rg -n CONTEXT README.md' } })
    writer.append({ role: 'tool_result', toolCallId: 'call_branch_1', content: 'README.md:12: CONTEXT_COMPACT=80' })
    writer.append({ role: 'assistant', content: 'Documented.' })
    writer.closeTurn()

    const written = await call('sessions.continueInAgent', { sessionId: branch, turn: 2, agent: 'codex' })
    await rt.imports.importAll()
    const copy = shape(await conversationOf(rt, sessionUid(rt, written.agentSessionId)))
    expect(copy).toEqual([
      ...shape(await conversationOf(rt, original, 1)),
      { kind: 'user', text: 'Keep the default, document it instead', turn: 2 },
      { kind: 'tool', name: 'exec_command', input: { cmd: 'rg -n CONTEXT README.md' }, output: 'README.md:12: CONTEXT_COMPACT=80', isError: false, turn: 2 },
      { kind: 'assistant', text: 'Documented.', turn: 2 }
    ])
  })

  it('refuses to write over a file that is there, and a source no agent can resume', async () => {
    const claude = claudeHomeWithFixture()
    const rt = runtime({ claude })
    await rt.imports.importAll()
    const call = contractCaller(rt)
    const original = sessionUid(rt, CLAUDE_ID)
    const written = await call('sessions.continueInAgent', { sessionId: original, turn: 1 })
    const text = readFileSync(written.path, 'utf8')
    expect(() => writeNewFile(written.path, 'other')).toThrow(/already exists/)
    expect(readFileSync(written.path, 'utf8')).toBe(text)
    expect(readdirSync(dirname(written.path)).filter((name) => name.endsWith('.tmp'))).toEqual([])

    await expect(call('sessions.continueInAgent', { sessionId: original, turn: 1, agent: 'codex' })).rejects.toThrow(/VALIDATION/)
    await expect(call('sessions.continueInAgent', { sessionId: original, turn: 999 })).rejects.toThrow(/NOT_FOUND/)

    const workspace = (await call('workspaces.listRecent', {})).items[0]
    const native = rt.recorder.startSession({ workspaceId: workspace?.id ?? 1, title: 'native' })
    native.append({ role: 'user', content: 'hello' })
    native.closeTurn()
    await expect(call('sessions.continueInAgent', { sessionId: native.id, turn: 1 })).rejects.toThrow(/Retrace-only/)
  })

  it.each([
    ['claude-code', () => ({ claude: claudeHomeWithFixture() }), CLAUDE_ID, 3],
    ['codex', () => ({ codex: codexHomeWithFixture() }), CODEX_ID, 1]
  ] as const)('a %s session continued in its agent imports as the continuation of the session it came from, not a twin (R61)', async (agent, roots, sourceId, turn) => {
    const rt = runtime(roots())
    await rt.imports.importAll()
    const call = contractCaller(rt)
    const original = sessionUid(rt, sourceId)
    const written = await call('sessions.continueInAgent', { sessionId: original, turn, agent })
    await rt.imports.importAll()
    const copy = await call('sessions.get', { sessionId: sessionUid(rt, written.agentSessionId) })
    expect([copy.kind, copy.predecessorId, copy.parentId]).toEqual(['main', original, null])
    // The list shows one conversation continued, not two unrelated sessions with one title.
    const listed = (await call('sessions.list', { workspaceId: copy.workspaceId })).items
    expect(listed.filter((s) => s.predecessorId === null && s.kind === 'main').map((s) => s.id)).toEqual([original])
    // A later import keeps the link.
    await rt.imports.importAll()
    expect((await call('sessions.get', { sessionId: copy.id })).predecessorId).toBe(original)
  })
})

