import { copyFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { decode, encode } from '@msgpack/msgpack'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { contractCaller, importTestbed } from '../testing/import-testbed'

const TRAVAI = join(FIXTURES, 'langgraph/travai/checkpoints.sqlite')
const CHATGPT_CLONE = join(FIXTURES, 'langgraph/chatgpt-clone/checkpoints.sqlite')
const EMAIL = join(FIXTURES, 'langgraph/email-assistant/checkpoints.sqlite')
const EEV_AI = join(FIXTURES, 'conformance/eev-ai-langgraph/project/checkpoints.sqlite')

describe('importing a LangGraph checkpoint database', () => {
  const { tempDir, runtime } = importTestbed('retrace-langgraph-')

  function project(database = TRAVAI): string {
    const root = join(tempDir(), 'travai')
    mkdirSync(root)
    copyFileSync(database, join(root, 'checkpoints.sqlite'))
    return root
  }

  it('reports each thread whose state keeps no messages channel, by database and thread, instead of dropping it', async () => {
    const call = contractCaller(runtime({}))
    // A chat app keeping its conversation in `input` and `output` (fixtures/langgraph/chatgpt-clone/PROVENANCE.txt).
    const root = project(CHATGPT_CLONE)
    const workspace = await call('workspaces.open', { path: root })
    const report = await call('imports.run', { workspaceId: workspace.id, sources: ['langgraph'] })
    expect(report.sessions).toBe(0)
    // What each thread's checkpoints hold: a35da41d and e0069b27 never got an answer, fabdd6f4 failed before its input was kept.
    const holds: Record<string, string> = { '5aec4175': 'input, output', '804e4ab2': 'input, output', '9bc896ae': 'input, output', a35da41d: 'input', ac95d809: 'input, output', bca40f02: 'input, output', caf5fcda: 'input, output', e0069b27: 'input', f08d812d: 'input, output', fabdd6f4: '', sasish: 'input, output' }
    expect(report.skipped.map((skip) => skip.reason)).toEqual(
      Object.entries(holds).map(([thread, channels]) => `checkpoints.sqlite: thread ${thread} keeps no messages channel (${channels ? `its state holds ${channels}` : 'its state holds no channel of its own'}): no conversation to show; not imported`)
    )
    expect(report.skipped.every((skip) => skip.file === join(root, 'checkpoints.sqlite'))).toBe(true)

    // An email triage graph: plain fields, no conversation at all.
    const email = contractCaller(runtime({}))
    const other = await email('workspaces.open', { path: project(EMAIL) })
    const reasons = (await email('imports.run', { workspaceId: other.id, sources: ['langgraph'] })).skipped.map((skip) => skip.reason)
    expect(reasons).toEqual([expect.stringMatching(/^checkpoints\.sqlite: thread thread-1 keeps no messages channel \(its state holds [a-z_, ]+\)/) as string])
  })

  it('makes each thread a session: turns from the prompts, tool calls paired with results, usage and model', async () => {
    const rt = runtime({})
    const call = contractCaller(rt)
    const workspace = await call('workspaces.open', { path: project() })
    const report = await call('imports.run', { workspaceId: workspace.id, sources: ['langgraph'] })
    expect(report).toMatchObject({ sessions: 2, skipped: [] })
    const sessions = (await call('sessions.list', { workspaceId: workspace.id })).items
    expect(sessions.map((session) => [session.source, session.title, session.turnCount]).sort()).toEqual([
      ['langgraph', 'Hello welcome', 6],
      ['langgraph', expect.any(String) as string, 4]
    ].sort())
    const first = sessions.find((session) => session.title === 'Hello welcome')
    const page = await call('transcript.page', { sessionId: first?.id ?? '', limit: 500 })
    const count = (role: string) => page.items.filter((message) => message.role === role).length
    expect([count('user'), count('tool_call'), count('tool_result')]).toEqual([6, 8, 8])
    // 14 AI messages: 8 asked for a tool (one call each), 6 answered; each may carry reasoning.
    expect(count('assistant')).toBe(6)
    const calls = new Set(page.items.filter((message) => message.role === 'tool_call').map((message) => message.toolCallId))
    for (const result of page.items.filter((message) => message.role === 'tool_result')) expect(calls.has(result.toolCallId)).toBe(true)
    expect(first?.model).toBe('openai/gpt-oss-120b')
    expect(first?.usage.inputTokens).toBeGreaterThan(0)

    // Nothing new: nothing is imported again.
    expect(await call('imports.run', { workspaceId: workspace.id, sources: ['langgraph'] })).toMatchObject({ files: 0, sessions: 0 })
  })

  it('follows a thread that goes on, and draws time travel as a branch', async () => {
    const rt = runtime({})
    const call = contractCaller(rt)
    const root = project()
    const workspace = await call('workspaces.open', { path: root })
    await call('imports.run', { workspaceId: workspace.id, sources: ['langgraph'] })

    // Time travel: a new checkpoint whose parent is an early checkpoint of the second thread.
    const db = new Database(join(root, 'checkpoints.sqlite'))
    const rows = db.prepare("SELECT * FROM checkpoints WHERE thread_id LIKE '830d%' ORDER BY checkpoint_id").all() as Record<string, unknown>[]
    const forkAt = rows[5] as Record<string, unknown>
    const later = rows[9] as Record<string, unknown>
    db.prepare('INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      forkAt.thread_id, '', `${String(forkAt.checkpoint_id)}-fork`, forkAt.checkpoint_id, later.type, later.checkpoint, later.metadata
    )
    db.close()
    const report = await call('imports.run', { workspaceId: workspace.id, sources: ['langgraph'] })
    expect(report.sessions).toBe(1)
    const tree = await call('sessions.tree', { workspaceId: workspace.id })
    const branch = tree.nodes.find((node) => node.kind === 'branch')
    const main = tree.nodes.find((node) => node.id === branch?.parentId)
    expect(main?.source).toBe('langgraph')
    expect(tree.nodes).toHaveLength(3)
  })

  it('a thread that goes on is read again under the same session id (the open transcript stays)', async () => {
    const rt = runtime({})
    const call = contractCaller(rt)
    const root = project()
    const workspace = await call('workspaces.open', { path: root })
    await call('imports.run', { workspaceId: workspace.id, sources: ['langgraph'] })
    const before = (await call('sessions.list', { workspaceId: workspace.id })).items.map((session) => [session.title, session.id]).sort()

    // The agent takes another step on the second thread: a checkpoint after its latest one.
    const db = new Database(join(root, 'checkpoints.sqlite'))
    const latest = db.prepare("SELECT * FROM checkpoints WHERE thread_id LIKE '830d%' ORDER BY checkpoint_id DESC LIMIT 1").get() as Record<string, unknown>
    db.prepare('INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      latest.thread_id, '', `${String(latest.checkpoint_id)}-next`, latest.checkpoint_id, latest.type, latest.checkpoint, latest.metadata
    )
    db.close()
    // Written again (one session), under the id it had.
    expect((await call('imports.run', { workspaceId: workspace.id, sources: ['langgraph'] })).sessions).toBe(1)
    const after = (await call('sessions.list', { workspaceId: workspace.id })).items.map((session) => [session.title, session.id]).sort()
    expect(after).toEqual(before)
  })

  it('lists a checkpoint it cannot read once, even when the thread\'s line and a branch both hold it', async () => {
    const rt = runtime({})
    const call = contractCaller(rt)
    const root = project()
    // An early checkpoint of the second thread cannot be decoded; time travel from a later one
    // makes a branch whose line holds it too.
    const db = new Database(join(root, 'checkpoints.sqlite'))
    const rows = db.prepare("SELECT * FROM checkpoints WHERE thread_id LIKE '830d%' AND checkpoint_ns = '' ORDER BY checkpoint_id").all() as Record<string, unknown>[]
    const broken = rows[2] as Record<string, unknown>
    const forkAt = rows[5] as Record<string, unknown>
    const later = rows[9] as Record<string, unknown>
    db.prepare("UPDATE checkpoints SET checkpoint = x'c1' WHERE thread_id = ? AND checkpoint_ns = '' AND checkpoint_id = ?").run(broken.thread_id, broken.checkpoint_id)
    db.prepare('INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      forkAt.thread_id, '', `${String(forkAt.checkpoint_id)}-fork`, forkAt.checkpoint_id, later.type, later.checkpoint, later.metadata
    )
    db.close()
    const workspace = await call('workspaces.open', { path: root })
    const report = await call('imports.run', { workspaceId: workspace.id, sources: ['langgraph'] })
    expect(report.sessions).toBe(3)
    const listed = report.skipped.filter((skip) => skip.reason.includes(String(broken.checkpoint_id)))
    expect(listed).toEqual([{ file: join(root, 'checkpoints.sqlite'), offset: 0, reason: expect.stringMatching(/^thread 830d.*cannot be decoded/) as string }])
  })

  it('shows a step that failed (an __error__ write) in the turn it failed in', async () => {
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: project(EEV_AI) })
    await call('imports.run', { workspaceId: workspace.id, sources: ['langgraph'] })
    // Thread "1", the one of 25 turns, holds the database's 4 __error__ writes (fixtures/conformance/eev-ai-langgraph).
    const thread = (await call('sessions.list', { workspaceId: workspace.id })).items.find((session) => session.turnCount === 25)
    const items = (await call('transcript.page', { sessionId: thread?.id ?? '', transcript: 'display', limit: 500 })).items
    const failures: [number, string][] = []
    let turn = 0
    for (const item of items) {
      if (item.role === 'user') turn += 1
      else if (item.role === 'system' && item.content.startsWith('LangGraph: a step failed')) failures.push([turn, item.content.split('\n')[0]?.slice(0, 60) ?? ''])
    }
    // The turns whose checkpoint the failed step started from: its human messages number 12, 13, 14 and 23.
    expect(failures).toEqual([
      [12, 'LangGraph: a step failed: NotImplementedError("Unsupported m'],
      [13, 'LangGraph: a step failed: NotImplementedError("Unsupported m'],
      [14, 'LangGraph: a step failed: NotImplementedError("Unsupported m'],
      [23, 'LangGraph: a step failed: RateLimitError("Error code: 429 - ']
    ])
  })

  it('dates a message without an id by the checkpoint that first held it, never by the import', async () => {
    const root = project()
    // A graph whose state is a plain list (no add_messages reducer) keeps the dicts it was given:
    // no ids. Three steps of such a thread, saved as the saver saves any state (msgpack).
    const db = new Database(join(root, 'checkpoints.sqlite'))
    const template = db.prepare("SELECT metadata FROM checkpoints WHERE thread_id LIKE '830d%' ORDER BY checkpoint_id LIMIT 1").get() as { metadata: Buffer }
    const insert = db.prepare("INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata) VALUES ('plain-dicts', '', ?, ?, 'msgpack', ?, ?)")
    const said = [{ role: 'user', content: 'Plan a day in Kyoto' }, { role: 'assistant', content: 'Morning: Fushimi Inari.' }, { role: 'user', content: 'And the evening?' }, { role: 'assistant', content: 'Gion.' }]
    const steps = [['1f000000-0000-6000-8000-000000000001', '2025-03-01T09:00:00.000000+00:00', 1], ['1f000000-0000-6000-8000-000000000002', '2025-03-01T09:00:05.123456+00:00', 2], ['1f000000-0000-6000-8000-000000000003', '2025-03-01T09:10:00.000000+00:00', 4]] as const
    steps.forEach(([id, ts, count], index) => {
      const state = { v: 4, ts, id, channel_values: { messages: said.slice(0, count) }, channel_versions: {}, versions_seen: {} }
      insert.run(id, index === 0 ? null : steps[index - 1]?.[0], Buffer.from(encode(state)), template.metadata)
    })
    db.close()
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: root })
    await call('imports.run', { workspaceId: workspace.id, sources: ['langgraph'] })
    const session = (await call('sessions.list', { workspaceId: workspace.id })).items.find((found) => found.title === 'Plan a day in Kyoto')
    const items = (await call('transcript.page', { sessionId: session?.id ?? '', transcript: 'display', limit: 50 })).items
    const at = (ts: string) => Date.parse(ts)
    expect(items.map((item) => [item.content, item.createdAt])).toEqual([
      ['Plan a day in Kyoto', at('2025-03-01T09:00:00Z')],
      ['Morning: Fushimi Inari.', at('2025-03-01T09:00:05.123Z')],
      ['And the evening?', at('2025-03-01T09:10:00Z')],
      ['Gion.', at('2025-03-01T09:10:00Z')]
    ])
    expect(session?.updatedAt).toBe(at('2025-03-01T09:10:00Z'))
  })

  it('links a thread started from another thread\'s state to it, at its fork turn, instead of repeating its turns', async () => {
    const root = project()
    // A thread copied from another (LangGraph Platform's threads.copy, or an app copying a state
    // into a new thread): the first ten checkpoints of thread 830d… again under a new thread id,
    // the same messages (the same ids), then a prompt of its own.
    const db = new Database(join(root, 'checkpoints.sqlite'))
    const rows = db.prepare("SELECT * FROM checkpoints WHERE thread_id LIKE '830d%' AND checkpoint_ns = '' ORDER BY checkpoint_id").all() as Record<string, unknown>[]
    const insert = db.prepare("INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata) VALUES ('copied-thread', '', ?, ?, ?, ?, ?)")
    const copied = rows.slice(0, 10)
    const id = (index: number) => `${String(copied[index]?.checkpoint_id)}-copy`
    copied.forEach((row, index) => insert.run(id(index), index === 0 ? null : id(index - 1), row.type, row.checkpoint, row.metadata))
    const last = copied.at(-1) as Record<string, unknown>
    const state = decode(last.checkpoint as Buffer) as { ts: string; channel_values: { messages: unknown[] } }
    const shared = state.channel_values.messages.length
    state.channel_values.messages.push({ role: 'user', content: 'Now plan the same trip for two weeks', id: 'copied-thread-own-prompt' })
    insert.run(`${id(9)}-own`, id(9), last.type, Buffer.from(encode(state)), last.metadata)
    db.close()

    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: root })
    const report = await call('imports.run', { workspaceId: workspace.id, sources: ['langgraph'] })
    expect(report.sessions).toBe(3)
    const tree = await call('sessions.tree', { workspaceId: workspace.id })
    const sessions = (await call('sessions.list', { workspaceId: workspace.id })).items
    const original = sessions.find((session) => session.turnCount === 4 && session.kind === 'main')
    const copy = tree.nodes.find((node) => node.kind === 'branch')
    expect(copy?.parentId).toBe(original?.id)
    const items = (await call('transcript.page', { sessionId: copy?.id ?? '', transcript: 'display', limit: 500 })).items
    // The original's messages up to the fork, then its own prompt: nothing repeated as its own.
    const before = (await call('transcript.page', { sessionId: original?.id ?? '', transcript: 'display', limit: 500 })).items
    const strip = (list: typeof items) => list.map((item) => [item.role, item.content])
    expect(strip(items.slice(0, -1))).toEqual(strip(before.slice(0, items.length - 1)))
    expect(items.filter((item) => item.seq >= (copy?.forkSeq ?? 0)).map((item) => item.content)).toEqual(['Now plan the same trip for two weeks'])
    expect(shared).toBeGreaterThan(0)
    // Still two main sessions: the copy is not a third.
    expect(tree.nodes.filter((node) => node.kind === 'main')).toHaveLength(2)
  })

  it('reports each call of a file-writing tool as a change not captured, and a shell tool\'s call as its command', async () => {
    const root = project()
    // A graph given LangChain's FileManagementToolkit and ShellTool: its AI message asks for
    // write_file, move_file, read_file and terminal. Kept as plain dicts (no add_messages reducer).
    const db = new Database(join(root, 'checkpoints.sqlite'))
    const template = db.prepare("SELECT metadata FROM checkpoints WHERE thread_id LIKE '830d%' ORDER BY checkpoint_id LIMIT 1").get() as { metadata: Buffer }
    const calls = [
      { name: 'write_file', args: { file_path: 'notes/plan.md', text: '# Plan', append: false }, id: 'call_w' },
      { name: 'move_file', args: { source_path: 'a.txt', destination_path: 'b.txt' }, id: 'call_m' },
      { name: 'read_file', args: { file_path: 'notes/plan.md' }, id: 'call_r' },
      { name: 'terminal', args: { commands: ['ls -la', 'git status'] }, id: 'call_t' }
    ]
    const messages = [{ role: 'user', content: 'Write the plan down' }, { role: 'assistant', content: '', tool_calls: calls }]
    const state = { v: 4, ts: '2025-03-02T10:00:00.000000+00:00', id: '1f000000-0000-6000-8000-0000000000aa', channel_values: { messages }, channel_versions: {}, versions_seen: {} }
    db.prepare("INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata) VALUES ('with-files', '', ?, NULL, 'msgpack', ?, ?)").run(state.id, Buffer.from(encode(state)), template.metadata)
    db.close()
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: root })
    const report = await call('imports.run', { workspaceId: workspace.id, sources: ['langgraph'] })
    const why = "LangGraph keeps the call's arguments and the tool's answer, not the file before or after it"
    expect(report.changesNotJournaled.map((entry) => entry.reason)).toEqual([`file change not captured (${why}): notes/plan.md`, `file change not captured (${why}): b.txt`])
    // Nothing a LangGraph graph changed can be put back: the session says so, not "0 of 3 recorded" (R44).
    const session = (await call('sessions.list', { workspaceId: workspace.id })).items.find((item) => item.coverage.notCaptured > 0)
    expect(session?.coverage).toEqual({ recorded: 0, notCaptured: 2, uncapturedCommands: 0, agentKeepsNoContent: true })
  })
})
