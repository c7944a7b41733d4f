import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ZodError } from 'zod'
import { tempRuntime } from '../testing/temp-runtime'
import { MAX_SESSION_DEPTH } from './recorder'

type Runtime = ReturnType<typeof tempRuntime>

describe('recorder', () => {
  let rt: Runtime
  let workspaceId: number
  beforeEach(() => {
    rt = tempRuntime()
    workspaceId = rt.store.workspaces.open(rt.store.dataDir, 'ws')
  })
  afterEach(() => rt.dispose())

  const session = (id: string) => rt.store.sessions.require(id)
  const messagesOf = (id: string) =>
    rt.store.messages.page({ sessionRowId: session(id).rowId, sessionUid: id, transcript: 'display', contextStartSeq: 0 }, 'after', null, 500).items

  it('numbers turns from user prompts and checkpoints each closed turn with the messages before it', () => {
    const writer = rt.recorder.startSession({ workspaceId, createdAt: 1000 })
    writer.append({ role: 'system', content: 'boot', createdAt: 1001 })
    writer.append({ role: 'user', content: 'First prompt\nsecond line', createdAt: 1002 })
    writer.append({ role: 'assistant', content: 'ok', usage: { inputTokens: 10, outputTokens: 5 }, createdAt: 1003 })
    writer.append({ role: 'user', content: 'again', createdAt: 1004 })
    writer.append({ role: 'tool_call', toolName: 'Bash', toolCallId: 't1', toolInput: { command: 'ls' }, createdAt: 1005 })
    writer.append({ role: 'tool_result', toolName: 'Bash', toolCallId: 't1', content: 'a\nb', createdAt: 1006 })
    expect(writer.closeTurn()).toEqual({ turn: 2, messagesBefore: 3, invalidated: false, uncapturedCommands: 0, createdAt: 1006, notCaptured: [], coverage: { recorded: 0, notCaptured: 0, uncapturedCommands: 0, agentKeepsNoContent: false } })
    expect(writer.closeTurn()).toBeNull()

    const record = session(writer.id)
    expect(record).toMatchObject({ title: 'First prompt', messageCount: 6, turnCount: 2, updatedAt: 1006, kind: 'main', depth: 0 })
    expect(record.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 })
    expect(rt.store.checkpoints.list(record.rowId).map((c) => [c.turn, c.messagesBefore])).toEqual([
      [1, 1],
      [2, 3]
    ])
    expect(messagesOf(writer.id).map((m) => [m.seq, m.turn, m.role])).toEqual([
      [0, 0, 'system'],
      [1, 1, 'user'],
      [2, 1, 'assistant'],
      [3, 2, 'user'],
      [4, 2, 'tool_call'],
      [5, 2, 'tool_result']
    ])
    expect(messagesOf(writer.id)[4]?.toolInput).toEqual({ command: 'ls' })
  })

  it('keeps everything in the display transcript and starts the context transcript at a compaction', () => {
    const writer = rt.recorder.startSession({ workspaceId })
    writer.append({ role: 'user', content: 'one' })
    writer.append({ role: 'assistant', content: 'two' })
    const summarySeq = writer.compact('summary of one and two')
    writer.append({ role: 'user', content: 'three' })
    const record = session(writer.id)
    expect(record.contextStartSeq).toBe(summarySeq)
    const view = { sessionRowId: record.rowId, sessionUid: record.id, contextStartSeq: record.contextStartSeq }
    expect(rt.store.messages.page({ ...view, transcript: 'display' }, 'after', null, 50).items.map((m) => m.content)).toEqual(['one', 'two', 'summary of one and two', 'three'])
    expect(rt.store.messages.page({ ...view, transcript: 'context' }, 'after', null, 50).items.map((m) => m.role)).toEqual(['compaction_summary', 'user'])
    expect(rt.store.messages.countContext(record.rowId, record.contextStartSeq)).toBe(2)
  })

  it('forks a branch with the prefix before a turn and its checkpoints, one level deeper', () => {
    const parent = rt.recorder.startSession({ workspaceId, title: 'Parent' })
    for (const n of [1, 2, 3]) {
      parent.append({ role: 'user', content: `prompt ${n}` })
      parent.append({ role: 'assistant', content: `answer ${n}` })
    }
    parent.close()
    const branch = rt.recorder.fork(parent.id, { atTurn: 3, title: 'Other way' })
    expect(session(branch.id)).toMatchObject({ kind: 'branch', parentId: parent.id, depth: 1, forkSeq: 4, messageCount: 4, turnCount: 2, title: 'Other way' })
    expect(messagesOf(branch.id).map((m) => m.content)).toEqual(['prompt 1', 'answer 1', 'prompt 2', 'answer 2'])
    expect(rt.store.checkpoints.list(session(branch.id).rowId).map((c) => c.turn)).toEqual([1, 2])
    branch.append({ role: 'user', content: 'different prompt 3' })
    branch.closeTurn()
    expect(session(branch.id)).toMatchObject({ messageCount: 5, turnCount: 3 })
    expect(messagesOf(parent.id)).toHaveLength(6)
    expect(() => rt.recorder.fork(parent.id, { atTurn: 9 })).toThrow(/no turn 9/)
  })

  it('links sub-agents to their parent and successors to their predecessor', () => {
    const main = rt.recorder.startSession({ workspaceId, title: 'Main' })
    main.append({ role: 'user', content: 'do it' })
    main.append({ role: 'tool_call', toolName: 'Task', toolCallId: 'x', toolInput: {} })
    const sub = main.startSubAgent({ title: 'Helper' })
    expect(session(sub.id)).toMatchObject({ kind: 'sub-agent', parentId: main.id, depth: 1, forkSeq: 1 })
    const next = rt.recorder.startSuccessor(main.id, { title: 'After /clear' })
    expect(session(next.id)).toMatchObject({ kind: 'main', predecessorId: main.id, depth: 0 })
    expect(session(main.id).status).toBe('closed')
    expect(rt.store.sessions.successors(session(main.id).rowId)).toEqual([{ id: next.id, title: 'After /clear', kind: 'main' }])
    expect(rt.store.sessions.children(session(main.id).rowId).map((c) => c.id)).toEqual([sub.id])
  })

  it('resumes a session where it stopped', () => {
    const writer = rt.recorder.startSession({ workspaceId })
    writer.append({ role: 'user', content: 'a' })
    const resumed = rt.recorder.resume(writer.id)
    resumed.append({ role: 'assistant', content: 'b' })
    resumed.append({ role: 'user', content: 'c' })
    expect(messagesOf(writer.id).map((m) => [m.seq, m.turn])).toEqual([
      [0, 1],
      [1, 1],
      [2, 2]
    ])
    expect(rt.store.checkpoints.list(session(writer.id).rowId).map((c) => c.turn)).toEqual([1])
  })

  it('refuses invalid messages and unbounded nesting', () => {
    const writer = rt.recorder.startSession({ workspaceId })
    expect(() => writer.append({ role: 'tool_call', content: '' })).toThrow(ZodError)
    expect(() => writer.append({ role: 'wizard' as 'user', content: '' })).toThrow(ZodError)
    expect(() => rt.recorder.startSession({ workspaceId: 999 })).toThrow(/No workspace/)
    let current = writer
    for (let depth = 1; depth <= MAX_SESSION_DEPTH; depth++) current = current.startSubAgent()
    expect(() => current.startSubAgent()).toThrow(/at most 32 levels/)
  })

  it('refuses a tool input nested thousands of levels deep as invalid, without overflowing the stack', () => {
    const writer = rt.recorder.startSession({ workspaceId })
    let deep: unknown = 1
    for (let level = 0; level < 5000; level++) deep = level % 2 ? { a: deep } : [deep]
    const refusal = (() => {
      try {
        writer.append({ role: 'tool_call', toolName: 'Bash', toolInput: deep })
      } catch (error) {
        return error
      }
    })()
    expect(refusal).toBeInstanceOf(ZodError)
    expect((refusal as ZodError).issues).toMatchObject([{ path: ['toolInput'], message: 'nested more than 128 levels deep' }])
    let shallow: unknown = 1
    for (let level = 0; level < 128; level++) shallow = { a: shallow }
    writer.append({ role: 'tool_call', toolName: 'Bash', toolInput: shallow })
    expect(messagesOf(writer.id)[0]?.toolInput).toEqual(shallow)
  })

  it('announces writes on the change feed, merged per tick', async () => {
    const events: unknown[] = []
    rt.feed.subscribe((event) => events.push(event))
    const writer = rt.recorder.startSession({ workspaceId })
    writer.append({ role: 'user', content: 'a' })
    writer.append({ role: 'assistant', content: 'b' })
    await new Promise((resolve) => setImmediate(resolve))
    expect(events).toEqual([
      { name: 'data.changed', payload: { entities: ['sessions', 'messages', 'checkpoints', 'workspaces', 'files'], workspaceId, sessionIds: [writer.id] } }
    ])
  })
})
