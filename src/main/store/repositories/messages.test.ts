import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type MessageRole } from '../../../shared/contract'
import { databaseOf } from '../raw-database'
import { openStore, type Store } from '../store'
import { decodeSeqCursor, type TranscriptView } from './messages'
import { splitSnippet } from './search-index'

describe('the display transcript and the context transcript derived from it (messages)', () => {
  let dataDir: string
  let store: Store
  let workspaceId: number
  let sessionRowId: number
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'retrace-messages-'))
    store = openStore(dataDir)
    workspaceId = store.workspaces.open(join(dataDir, 'w'), 'w')
    sessionRowId = store.sessions.insert({ uid: 's', workspaceId, source: 'retrace', title: 'S', kind: 'main', createdAt: 1 })
  })
  afterEach(() => {
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  /** Messages at seqs 0.. with the given turns and roles; content names the seq. */
  const fill = (rows: [turn: number, role: MessageRole][], session = sessionRowId) =>
    rows.map(([turn, role], seq) => store.messages.insert({ sessionRowId: session, seq, turn, role, content: `message ${seq}` }))
  const view = (transcript: 'display' | 'context', contextStartSeq = 0): TranscriptView => ({ sessionRowId, sessionUid: 's', transcript, contextStartSeq })

  it('reads a message back in the transport shape, JSON fields parsed and usage present only when reported', () => {
    const id = store.messages.insert({
      sessionRowId,
      seq: 0,
      turn: 1,
      role: 'tool_call',
      content: '',
      toolName: 'Edit',
      toolCallId: 'call-1',
      toolInput: { file: 'a.ts', lines: [1, 2] },
      isError: true,
      model: 'm',
      usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 4, costUsd: 0.25 },
      createdAt: 77,
      sourceRef: { file: '/h/a.jsonl', offset: 12 },
      sourceUid: 'uuid-1'
    })
    store.messages.insert({ sessionRowId, seq: 1, turn: 1, role: 'assistant', content: 'done', inContext: false })
    const { items } = store.messages.page(view('display'), 'after', null, 10)
    expect(items[0]).toEqual({
      id,
      sessionId: 's',
      seq: 0,
      turn: 1,
      role: 'tool_call',
      content: '',
      toolName: 'Edit',
      toolCallId: 'call-1',
      toolInput: { file: 'a.ts', lines: [1, 2] },
      isError: true,
      model: 'm',
      usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 4, costUsd: 0.25 },
      createdAt: 77,
      inContext: true,
      sourceRef: { file: '/h/a.jsonl', offset: 12 }
    })
    expect(items[1]).toMatchObject({ toolInput: null, isError: false, usage: null, inContext: false, sourceRef: null, createdAt: null })
    expect(store.messages.bySourceUid(sessionRowId, 'uuid-1')).toEqual({ id, seq: 0, turn: 1, role: 'tool_call', createdAt: 77 })
    expect(store.messages.bySourceUid(sessionRowId, 'uuid-2')).toBeUndefined()
    expect(store.messages.seqOfToolCall(sessionRowId, 'call-1')).toBe(0)
    expect(store.messages.seqOfToolCall(sessionRowId, 'call-2')).toBeUndefined()
  })

  it('adds usage reported after the message, starting from zero where none was', () => {
    const [id = -1] = fill([[1, 'assistant']])
    store.messages.addUsage(id, { inputTokens: 5, outputTokens: 6, cacheReadTokens: 7, cacheWriteTokens: 8 })
    store.messages.addUsage(id, { inputTokens: 1, outputTokens: 1, cacheReadTokens: 1, cacheWriteTokens: 1 })
    expect(store.messages.page(view('display'), 'after', null, 1).items[0]?.usage).toEqual({ inputTokens: 6, outputTokens: 7, cacheReadTokens: 8, cacheWriteTokens: 9, costUsd: null })
  })

  it('answers where turns start and end: countFrom, lastTurnBefore, turnStart, latestOfRole', () => {
    const ids = fill([[0, 'system'], [1, 'user'], [1, 'assistant'], [2, 'user'], [2, 'assistant']])
    expect(store.messages.countFrom(sessionRowId, 0)).toBe(5)
    expect(store.messages.countFrom(sessionRowId, 3)).toBe(2)
    expect(store.messages.countFrom(sessionRowId, 9)).toBe(0)
    expect(store.messages.lastTurnBefore(sessionRowId, 3)).toBe(1)
    expect(store.messages.lastTurnBefore(sessionRowId, 0)).toBe(0) // no message before: 0
    expect(store.messages.turnStart(sessionRowId, 2)).toBe(3)
    expect(store.messages.turnStart(sessionRowId, 7)).toBeNull()
    expect(store.messages.latestOfRole(sessionRowId, 'user')).toBe(ids[3])
    expect(store.messages.latestOfRole(sessionRowId, 'tool_result')).toBeUndefined()
  })

  it('takes a range out of the context transcript, which also starts at the context start; the display keeps it all', () => {
    fill([[1, 'user'], [1, 'assistant'], [1, 'assistant'], [2, 'compaction_summary'], [2, 'user'], [2, 'assistant']])
    store.messages.leaveContext(sessionRowId, 1, 3) // seqs 1 and 2, not 3
    expect(store.messages.countContext(sessionRowId, 0)).toBe(4)
    expect(store.messages.countContext(sessionRowId, 3)).toBe(3)
    expect(store.messages.page(view('context'), 'after', null, 10).items.map((m) => m.seq)).toEqual([0, 3, 4, 5])
    expect(store.messages.page(view('context', 3), 'after', null, 10).items.map((m) => m.seq)).toEqual([3, 4, 5])
    expect(store.messages.page(view('display'), 'after', null, 10).items.map((m) => m.seq)).toEqual([0, 1, 2, 3, 4, 5])
  })

  it('pages both ways in ascending order, with cursors only toward the sides that have more', () => {
    fill([[1, 'user'], [1, 'assistant'], [2, 'user'], [2, 'assistant'], [3, 'user']])
    const seqs = (page: { items: { seq: number }[] }) => page.items.map((m) => m.seq)
    const start = store.messages.page(view('display'), 'after', null, 2)
    expect([seqs(start), start.beforeCursor, start.afterCursor]).toEqual([[0, 1], null, '1'])
    const middle = store.messages.page(view('display'), 'after', decodeSeqCursor('1'), 2)
    expect([seqs(middle), middle.beforeCursor, middle.afterCursor]).toEqual([[2, 3], '2', '3'])
    const end = store.messages.page(view('display'), 'before', null, 2)
    expect([seqs(end), end.beforeCursor, end.afterCursor]).toEqual([[3, 4], '3', null])
    const back = store.messages.page(view('display'), 'before', 2, 5)
    expect([seqs(back), back.beforeCursor, back.afterCursor]).toEqual([[0, 1], null, '1'])
    expect(() => decodeSeqCursor('-1')).toThrow(/cursor is not valid/)
  })

  it('copies a prefix into a fork and returns stored rows from a seq on', () => {
    fill([[1, 'user'], [1, 'assistant'], [2, 'user']])
    const fork = store.sessions.insert({ uid: 'fork', workspaceId, source: 'retrace', title: 'F', kind: 'branch', parentRowId: sessionRowId, createdAt: 2 })
    expect(store.messages.copyPrefix(sessionRowId, fork, 2)).toBe(2)
    expect(store.messages.rowsFrom(fork, 0).map((row) => [row.seq, row.turn, row.role, row.content])).toEqual([
      [0, 1, 'user', 'message 0'],
      [1, 1, 'assistant', 'message 1']
    ])
    expect(store.messages.rowsFrom(sessionRowId, 1).map((row) => row.seq)).toEqual([1, 2])
  })

  it('keeps attachments beside their message, removed with it', () => {
    const [id = -1] = fill([[1, 'user']])
    store.messages.addAttachment(id, { mediaType: 'image/png', name: 'shot.png', data: Buffer.from([1, 2, 3]) })
    store.messages.addAttachment(id, { mediaType: 'application/pdf', data: null })
    const attachments = () => databaseOf(store).prepare('SELECT media_type, name, data FROM message_attachments WHERE message_id = ? ORDER BY id').all(id)
    expect(attachments()).toEqual([
      { media_type: 'image/png', name: 'shot.png', data: Buffer.from([1, 2, 3]) },
      { media_type: 'application/pdf', name: null, data: null }
    ])
    store.sessions.delete(sessionRowId)
    expect(attachments()).toEqual([])
  })

  it('finds text in a session, folding a tool result into its call, and says when it stopped short', () => {
    store.messages.insert({ sessionRowId, seq: 0, turn: 1, role: 'user', content: 'Look at 50%_off' })
    store.messages.insert({ sessionRowId, seq: 1, turn: 1, role: 'tool_call', content: '', toolCallId: 'c1', toolInput: { cmd: 'ls' } })
    store.messages.insert({ sessionRowId, seq: 2, turn: 1, role: 'tool_result', content: 'LOOK here', toolCallId: 'c1' })
    store.messages.insert({ sessionRowId, seq: 3, turn: 2, role: 'assistant', content: 'no match' })
    expect(store.messages.findInSession(view('display'), 'look', 10)).toEqual({ items: [{ seq: 0, turn: 1 }, { seq: 1, turn: 1 }], truncated: false })
    expect(store.messages.findInSession(view('display'), 'look', 1)).toEqual({ items: [{ seq: 0, turn: 1 }], truncated: true })
    expect(store.messages.findInSession(view('display'), '"cmd"', 10).items).toEqual([{ seq: 1, turn: 1 }]) // tool input is searched
    expect(store.messages.findInSession(view('display'), '0%_', 10).items).toEqual([{ seq: 0, turn: 1 }])
    expect(store.messages.findInSession(view('display'), '5%f', 10).items).toEqual([]) // % and _ are literal
  })

  it('searches the full-text index, optionally within one workspace, with the match marked in the snippet', () => {
    fill([[1, 'user']])
    store.messages.insert({ sessionRowId, seq: 1, turn: 1, role: 'assistant', content: 'the quick zebra' })
    const otherWorkspace = store.workspaces.open(join(dataDir, 'other'), 'other')
    const otherSession = store.sessions.insert({ uid: 'o', workspaceId: otherWorkspace, source: 'retrace', title: 'O', kind: 'main', createdAt: 1 })
    store.messages.insert({ sessionRowId: otherSession, seq: 0, turn: 1, role: 'user', content: 'a zebra too' })
    const everywhere = store.searchIndex.search('zebra', { limit: 10, offset: 0 }) ?? []
    expect(everywhere.map((hit) => hit.sessionId).sort()).toEqual(['o', 's'])
    const here = store.searchIndex.search('zebra', { workspaceId, limit: 10, offset: 0 })
    expect(here).toEqual([
      {
        messageId: expect.any(Number) as number,
        sessionId: 's',
        sessionTitle: 'S',
        workspaceId,
        workspaceName: 'w',
        seq: 1,
        turn: 1,
        role: 'assistant',
        createdAt: null,
        snippet: [
          { text: 'the quick ', match: false },
          { text: 'zebra', match: true }
        ]
      }
    ])
    expect(store.searchIndex.search('   ', { limit: 10, offset: 0 })).toBeNull()
  })

  it('pages search hits best first, each page with the snippets of its own messages', () => {
    fill([[1, 'user']])
    const texts = ['okapi', 'okapi okapi okapi', 'an okapi and an okapi', 'one okapi among many other words here']
    texts.forEach((content, index) => store.messages.insert({ sessionRowId, seq: index + 1, turn: 1, role: 'assistant', content }))
    const all = store.searchIndex.search('okapi', { limit: 10, offset: 0 }) ?? []
    const pages = [0, 2].flatMap((offset) => store.searchIndex.search('okapi', { workspaceId, limit: 2, offset }) ?? [])
    expect(pages.map((hit) => hit.seq)).toEqual(all.map((hit) => hit.seq))
    expect(pages).toHaveLength(4)
    for (const hit of pages) expect(hit.snippet.map((part) => part.text).join('')).toBe(texts[hit.seq - 1])
  })

  it('splits a snippet into marked and unmarked parts', () => {
    expect(splitSnippet('a \u0001b\u0002 c \u0001d\u0002')).toEqual([
      { text: 'a ', match: false },
      { text: 'b', match: true },
      { text: ' c ', match: false },
      { text: 'd', match: true }
    ])
  })
})
