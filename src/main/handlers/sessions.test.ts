import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Message, MethodInput, MethodName, MethodOutput } from '../../shared/contract'
import { createDispatcher } from '../rpc/dispatcher'
import { tempRuntime } from '../testing/temp-runtime'
import { databaseOf } from '../store/raw-database'

type Runtime = ReturnType<typeof tempRuntime>

describe('session services through the handler wrapper', () => {
  let rt: Runtime
  let workspaceId: number
  let call: <K extends MethodName>(method: K, input: MethodInput<K>) => Promise<MethodOutput<K>>

  beforeEach(() => {
    rt = tempRuntime()
    workspaceId = rt.store.workspaces.open(rt.store.dataDir, 'ws')
    const dispatch = createDispatcher<null>({ handlers: rt.handlers, authorize: () => null })
    call = async (method, input) => {
      const result = await dispatch(method, input, null)
      if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`)
      return result.data as never
    }
  })
  afterEach(() => rt.dispose())

  it('lists sessions newest first with a keyset cursor that neither skips nor repeats', async () => {
    const ids: string[] = []
    rt.recorder.batch(() => {
      for (let i = 0; i < 23; i++) {
        // Several sessions share a timestamp: the id breaks the tie, so paging stays exact.
        const writer = rt.recorder.startSession({ workspaceId, title: `session ${i}`, createdAt: 1000 + Math.floor(i / 3) })
        ids.push(writer.id)
      }
    })
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page: MethodOutput<'sessions.list'> = await call('sessions.list', { workspaceId, cursor, limit: 5 })
      seen.push(...page.items.map((s) => s.id))
      cursor = page.nextCursor
      pages++
    } while (cursor)
    expect(pages).toBe(5)
    expect(seen).toEqual([...ids].reverse())
  })

  it('filters sessions by source and by text in the title or in any message', async () => {
    const a = rt.recorder.startSession({ workspaceId, title: 'Refactor the parser' })
    a.append({ role: 'user', content: 'please refactor' })
    const b = rt.recorder.startSession({ workspaceId, title: 'Other', source: 'claude-code' })
    b.append({ role: 'assistant', content: 'The tokenizer now handles unicode escapes' })
    const titles = async (input: Partial<MethodInput<'sessions.list'>>) => (await call('sessions.list', { workspaceId, ...input })).items.map((s) => s.title)
    expect(await titles({ source: 'claude-code' })).toEqual(['Other'])
    expect(await titles({ query: 'PARSER' })).toEqual(['Refactor the parser'])
    expect(await titles({ query: 'tokeniz' })).toEqual(['Other'])
    expect(await titles({ query: '100%_"' })).toEqual([])
    expect(await titles({ query: 'unicode', source: 'native' })).toEqual([])
  })

  it('pages a transcript forward and backward with cursors, display and context', async () => {
    const writer = rt.recorder.startSession({ workspaceId })
    rt.recorder.batch(() => {
      for (let i = 0; i < 25; i++) writer.append({ role: i % 5 === 0 ? 'user' : 'assistant', content: `m${i}` })
    })
    const forward: Message[] = []
    let after: string | null = null
    do {
      const page: MethodOutput<'transcript.page'> = await call('transcript.page', { sessionId: writer.id, direction: 'after', cursor: after, limit: 10 })
      expect(page.total).toBe(25)
      forward.push(...page.items)
      after = page.afterCursor
    } while (after)
    expect(forward.map((m) => m.seq)).toEqual([...Array(25).keys()])

    const last = await call('transcript.page', { sessionId: writer.id, direction: 'before', limit: 10 })
    expect(last.items.map((m) => m.seq)).toEqual([15, 16, 17, 18, 19, 20, 21, 22, 23, 24])
    expect(last.afterCursor).toBeNull()
    const previous = await call('transcript.page', { sessionId: writer.id, direction: 'before', cursor: last.beforeCursor, limit: 10 })
    expect(previous.items.map((m) => m.seq)).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14])
    const first = await call('transcript.page', { sessionId: writer.id, direction: 'before', cursor: previous.beforeCursor, limit: 10 })
    expect(first.items.map((m) => m.seq)).toEqual([0, 1, 2, 3, 4])
    expect(first.beforeCursor).toBeNull()
    expect(first.afterCursor).toBe('4')

    writer.compact('the summary')
    writer.append({ role: 'user', content: 'after' })
    const context = await call('transcript.page', { sessionId: writer.id, transcript: 'context', limit: 10 })
    expect(context.items.map((m) => m.content)).toEqual(['the summary', 'after'])
    expect(context.total).toBe(2)
  })

  it('searches message text across workspaces, with match parts and hostile queries made safe', async () => {
    const other = rt.store.workspaces.open('/elsewhere', 'elsewhere')
    rt.recorder.startSession({ workspaceId, title: 'Here' }).append({ role: 'assistant', content: 'The migration runner uses PRAGMA user_version.' })
    rt.recorder.startSession({ workspaceId: other, title: 'There' }).append({ role: 'user', content: 'why does the migration fail?' })
    const all = await call('search.messages', { query: 'migration' })
    expect(all.items.map((h) => h.sessionTitle).sort()).toEqual(['Here', 'There'])
    // Scoping applies before the newest-N cut: the older workspace's hit is found though newer ones exist elsewhere.
    const older = await call('search.messages', { query: 'migration', workspaceId })
    expect(older.items.map((h) => h.sessionTitle)).toEqual(['Here'])
    const scoped = await call('search.messages', { query: 'migrat', workspaceId: other })
    expect(scoped.items).toHaveLength(1)
    expect(scoped.items[0]?.snippet).toEqual([
      { text: 'why does the ', match: false },
      { text: 'migration', match: true },
      { text: ' fail?', match: false }
    ])
    // FTS5 syntax in user text is plain text: it either finds words or asks for some, never breaks.
    for (const hostile of ['a AND', 'NEAR(x y', 'col:val', 'migration*"', "'); DROP TABLE messages; --"]) {
      await expect(call('search.messages', { query: hostile })).resolves.toBeDefined()
    }
    for (const wordless of ['"', '*', '()']) {
      await expect(call('search.messages', { query: wordless })).rejects.toThrow(/^VALIDATION/)
    }
    expect(databaseOf(rt.store).prepare('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 2 })
  })

  it('finds a substring in one session: its rows in order, a result as its call\'s row, LIKE wildcards as text', async () => {
    const writer = rt.recorder.startSession({ workspaceId, title: 'Find me' })
    writer.append({ role: 'user', content: 'Rename the Widget class' })
    writer.append({ role: 'assistant', content: 'Looking for widgets.' })
    writer.append({ role: 'tool_call', toolName: 'Grep', toolCallId: 'c1', toolInput: { pattern: 'class Gadget' } })
    writer.append({ role: 'tool_result', toolCallId: 'c1', content: 'src/widget.ts: class Widget' })
    writer.append({ role: 'user', content: '100% done_now?' })
    writer.append({ role: 'assistant', content: 'gadget renamed' })
    rt.recorder.startSession({ workspaceId, title: 'Other' }).append({ role: 'user', content: 'a widget elsewhere' })
    const find = async (query: string) => (await call('transcript.find', { sessionId: writer.id, query })).items.map((item) => item.seq)
    // Case-insensitive substring; the result (seq 3) shows in its call's row (seq 2), once.
    expect(await find('WIDGET')).toEqual([0, 1, 2])
    expect(await find('gadget')).toEqual([2, 5])
    expect(await find('ss Gad')).toEqual([2])
    expect(await find('100%')).toEqual([4])
    expect(await find('0% d')).toEqual([4])
    expect(await find('%')).toEqual([4])
    expect(await find('e_n')).toEqual([4])
    expect(await find('_')).toEqual([4])
    expect(await find('nowhere')).toEqual([])
    const result = await call('transcript.find', { sessionId: writer.id, query: 'renamed' })
    expect(result).toEqual({ items: [{ seq: 5, turn: 2 }], truncated: false })
    writer.compact('the summary mentions a widget')
    expect((await call('transcript.find', { sessionId: writer.id, query: 'widget', transcript: 'context' })).items.map((item) => item.seq)).toEqual([6])
  })

  it('reports bad input as VALIDATION and unknown ids as NOT_FOUND, never as a crash', async () => {
    const dispatch = createDispatcher<null>({ handlers: rt.handlers, authorize: () => null })
    const codeOf = async (method: string, input: unknown) => {
      const result = await dispatch(method, input, null)
      return result.ok ? 'ok' : result.error.code
    }
    expect(await codeOf('sessions.list', { workspaceId: 'one' })).toBe('VALIDATION')
    expect(await codeOf('sessions.list', { workspaceId, limit: 100000 })).toBe('VALIDATION')
    expect(await codeOf('sessions.list', { workspaceId, extra: true })).toBe('VALIDATION')
    expect(await codeOf('sessions.list', { workspaceId, cursor: 'not-a-cursor' })).toBe('VALIDATION')
    expect(await codeOf('transcript.page', { sessionId: 'x', cursor: '12abc' })).toBe('NOT_FOUND')
    expect(await codeOf('search.messages', { query: '!!!' })).toBe('VALIDATION')
    expect(await codeOf('sessions.get', null)).toBe('VALIDATION')
    expect(await codeOf('sessions.get', 'a string')).toBe('VALIDATION')
    expect(await codeOf('sessions.get', { sessionId: 'nope' })).toBe('NOT_FOUND')
    expect(await codeOf('sessions.list', { workspaceId: 4242 })).toBe('NOT_FOUND')
    expect(await codeOf('no.such.method', {})).toBe('UNKNOWN_METHOD')
    expect(await codeOf('__proto__', {})).toBe('UNKNOWN_METHOD')
  })
})
