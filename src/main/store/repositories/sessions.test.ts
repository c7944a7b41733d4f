import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RetraceError } from '../../../shared/contract'
import { databaseOf } from '../raw-database'
import { openStore, type Store } from '../store'
import { type NewSession } from './sessions'

describe('sessions and their tree links (sessions)', () => {
  let dataDir: string
  let store: Store
  let workspaceId: number
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'retrace-sessions-'))
    store = openStore(dataDir)
    workspaceId = store.workspaces.open(join(dataDir, 'w'), 'w')
  })
  afterEach(() => {
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const insert = (uid: string, fields: Partial<NewSession> = {}): number =>
    store.sessions.insert({ uid, workspaceId, source: 'retrace', title: `title ${uid}`, kind: 'main', createdAt: 1000, ...fields })

  it('reads back what was inserted, with the defaults of what was left out', () => {
    const rowId = insert('11111111-aaaa')
    expect(store.sessions.get('11111111-aaaa')).toEqual({
      rowId,
      id: '11111111-aaaa',
      workspaceId,
      source: 'retrace',
      sourceSessionId: null,
      title: 'title 11111111-aaaa',
      titleOrigin: 'own',
      label: '',
      kind: 'main',
      parentId: null,
      parentTitle: null,
      forkTurn: null,
      parentRowId: null,
      missingParent: null,
      warmup: false,
      predecessorId: null,
      predecessorTitle: null,
      predecessorRowId: null,
      forkSeq: null,
      depth: 0,
      status: 'active',
      model: null,
      cwd: null,
      createdAt: 1000,
      updatedAt: 1000,
      messageCount: 0,
      turnCount: 0,
      rewoundInAgent: false,
      sourceDeletedAt: null,
      pricedCostUsd: null,
      costPricedOn: null,
      merged: null,
      contextStartSeq: 0,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null },
      coverage: { recorded: 0, notCaptured: 0, uncapturedCommands: 0, agentKeepsNoContent: false }
    })
  })

  it('resolves parent and predecessor row ids to their session ids, and names a parent not imported yet', () => {
    const parent = insert('parent')
    insert('child', { kind: 'branch', parentRowId: parent, forkSeq: 4, depth: 1, predecessorRowId: parent, model: 'm', cwd: '/c', rewoundInAgent: true })
    insert('orphan', { kind: 'sub-agent', source: 'claude-code', parentSourceId: 'abc' })
    expect(store.sessions.get('child')).toMatchObject({ parentId: 'parent', parentRowId: parent, predecessorId: 'parent', forkSeq: 4, depth: 1, model: 'm', cwd: '/c', rewoundInAgent: true, missingParent: null })
    expect(store.sessions.get('orphan')?.missingParent).toBe('abc')
    // Once linked, the source's parent id stays stored but no longer counts as missing.
    store.sessions.link(store.sessions.require('orphan').rowId, { parentRowId: parent, forkSeq: null, depth: 1 })
    expect(store.sessions.get('orphan')).toMatchObject({ parentId: 'parent', missingParent: null, depth: 1 })
  })

  it('names the parent and predecessor, and the parent turn a branch starts from', () => {
    const parent = insert('parent')
    // Turns 1-3 open at messages 0, 2 and 5: a branch at message 5 starts from turn 3, one
    // at message 4 (inside turn 2) from turn 2.
    for (const [turn, messagesBefore] of [[1, 0], [2, 2], [3, 5]] as const) store.checkpoints.create({ sessionRowId: parent, turn, messagesBefore, createdAt: 1000 })
    insert('at-turn', { kind: 'branch', parentRowId: parent, forkSeq: 5, depth: 1 })
    insert('inside-turn', { kind: 'sub-agent', parentRowId: parent, forkSeq: 4, depth: 1 })
    insert('no-point', { kind: 'sub-agent', parentRowId: parent, depth: 1 })
    insert('next', { predecessorRowId: parent })
    expect(store.sessions.get('at-turn')).toMatchObject({ parentTitle: 'title parent', forkTurn: 3 })
    expect(store.sessions.get('inside-turn')?.forkTurn).toBe(2)
    expect(store.sessions.get('no-point')?.forkTurn).toBeNull()
    expect(store.sessions.get('next')).toMatchObject({ predecessorTitle: 'title parent', parentTitle: null, forkTurn: null })
    const listed = store.sessions.list({ workspaceId, limit: 10 }).items.find((session) => session.id === 'at-turn')
    expect(listed).toMatchObject({ parentTitle: 'title parent', forkTurn: 3 })
  })

  it('require throws NOT_FOUND for an unknown id, where get returns undefined', () => {
    expect(store.sessions.get('nope')).toBeUndefined()
    const thrown = (() => {
      try {
        store.sessions.require('nope')
        return undefined
      } catch (error) {
        return error
      }
    })()
    expect(thrown).toBeInstanceOf(RetraceError)
    expect((thrown as RetraceError).code).toBe('NOT_FOUND')
  })

  it('finds a session by its id in its source, only in that workspace and source', () => {
    const rowId = insert('s1', { source: 'codex', sourceSessionId: 'rollout-1' })
    expect(store.sessions.bySourceId(workspaceId, 'codex', 'rollout-1')?.rowId).toBe(rowId)
    expect(store.sessions.bySourceId(workspaceId, 'claude-code', 'rollout-1')).toBeUndefined()
    expect(store.sessions.bySourceId(workspaceId + 1, 'codex', 'rollout-1')).toBeUndefined()
  })

  it('matches a reference by source session id or by a uid prefix of at least four characters, most recent first', () => {
    insert('abcd1234', { sourceSessionId: 'hook-x' })
    const newer = insert('abcd5678')
    store.sessions.saveProgress(newer, { messageCount: 0, turnCount: 0, updatedAt: 5000, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null, model: null })
    expect(store.sessions.matching('abcd').map((s) => s.id)).toEqual(['abcd5678', 'abcd1234'])
    expect(store.sessions.matching('abc')).toEqual([]) // too short to be meant as an id prefix
    expect(store.sessions.matching('hook-x').map((s) => s.id)).toEqual(['abcd1234'])
  })

  it('sets a title and a status, and a predecessor only where none is set', () => {
    const first = insert('first')
    const second = insert('second')
    const rowId = insert('s')
    store.sessions.setTitle(rowId, 'Renamed')
    store.sessions.setStatus(rowId, 'closed')
    store.sessions.setPredecessor(rowId, first)
    store.sessions.setPredecessor(rowId, second) // an existing link stays
    expect(store.sessions.get('s')).toMatchObject({ title: 'Renamed', status: 'closed', predecessorId: 'first' })
    store.sessions.setStatus(rowId, 'active')
    expect(store.sessions.get('s')?.status).toBe('active')
  })

  it('folds progress in, keeping the model when none is reported, and moves the context start', () => {
    const rowId = insert('s', { model: 'first-model' })
    const progress = { messageCount: 7, turnCount: 2, updatedAt: 2000, inputTokens: 10, outputTokens: 20, cacheReadTokens: 30, cacheWriteTokens: 40, costUsd: 0.5, model: null }
    store.sessions.saveProgress(rowId, progress)
    store.sessions.setContextStart(rowId, 5)
    expect(store.sessions.get('s')).toMatchObject({
      messageCount: 7,
      turnCount: 2,
      updatedAt: 2000,
      model: 'first-model',
      contextStartSeq: 5,
      usage: { inputTokens: 10, outputTokens: 20, cacheReadTokens: 30, cacheWriteTokens: 40, costUsd: 0.5 }
    })
    store.sessions.saveProgress(rowId, { ...progress, model: 'second-model' })
    expect(store.sessions.get('s')?.model).toBe('second-model')
  })

  it('lists refs of children (with where each left) and successors in creation order, and a ref by row id', () => {
    const parent = insert('p')
    insert('late-child', { kind: 'child', parentRowId: parent, createdAt: 3000 })
    insert('early-child', { kind: 'sub-agent', parentRowId: parent, forkSeq: 7, createdAt: 2000 })
    insert('next', { predecessorRowId: parent, createdAt: 2500 })
    expect(store.sessions.children(parent)).toEqual([
      { id: 'early-child', title: 'title early-child', kind: 'sub-agent', forkSeq: 7 },
      { id: 'late-child', title: 'title late-child', kind: 'child', forkSeq: null }
    ])
    expect(store.sessions.successors(parent)).toEqual([{ id: 'next', title: 'title next', kind: 'main' }])
    expect(store.sessions.ref(parent)).toEqual({ id: 'p', title: 'title p', kind: 'main' })
    expect(store.sessions.ref(null)).toBeNull()
    expect(store.sessions.ref(parent + 100)).toBeNull()
  })

  it('finds the latest other session of a source and kind created no later than a time', () => {
    const old = insert('old', { source: 'codex', createdAt: 100 })
    const current = insert('current', { source: 'codex', createdAt: 300 })
    insert('later', { source: 'codex', createdAt: 900 })
    insert('sub', { source: 'codex', kind: 'sub-agent', createdAt: 200 })
    expect(store.sessions.latestOfSource(workspaceId, 'codex', 'main', current, 500)).toBe('old')
    expect(store.sessions.latestOfSource(workspaceId, 'codex', 'main', old, 500)).toBe('current')
    expect(store.sessions.latestOfSource(workspaceId, 'codex', 'main', old, 50)).toBeUndefined()
  })

  it('deletes a session with its messages, and records and forgets merges', () => {
    const branch = insert('branch')
    const into = insert('into')
    store.messages.insert({ sessionRowId: branch, seq: 0, turn: 1, role: 'user', content: 'hi' })
    store.merges.add({ branchRowId: branch, intoRowId: into, mode: 'append', firstSeq: 3, messageCount: 2, createdAt: 10 })
    expect(store.tree.merges(workspaceId)).toEqual([{ branchId: 'branch', intoId: 'into', mode: 'append', createdAt: 10 }])
    // Without a through seq, the merge took the branch as it was: its last message.
    expect(store.merges.last(branch, into)).toMatchObject({ firstSeq: 3, messageCount: 2, throughSeq: 0 })
    expect(store.sessions.get('branch')?.merged).toEqual({ count: 1, lastAt: 10, newMessages: 0 })
    store.messages.insert({ sessionRowId: branch, seq: 1, turn: 2, role: 'user', content: 'later' })
    expect(store.sessions.get('branch')?.merged).toEqual({ count: 1, lastAt: 10, newMessages: 1 })
    expect(store.tree.nodes(workspaceId).find((node) => node.id === 'branch')?.merged).toEqual({ count: 1, lastAt: 10, newMessages: 1 })
    store.merges.removeBetween(branch, into)
    expect(store.tree.merges(workspaceId)).toEqual([])
    store.sessions.delete(branch)
    expect(store.sessions.get('branch')).toBeUndefined()
    expect(databaseOf(store).prepare('SELECT count(*) FROM messages WHERE session_id = ?').pluck().get(branch)).toBe(0)
  })

  describe('list', () => {
    const touch = (rowId: number, updatedAt: number) =>
      store.sessions.saveProgress(rowId, { messageCount: 0, turnCount: 0, updatedAt, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null, model: null })

    it('pages newest activity first with a cursor, and rejects a cursor that is not one', () => {
      for (const [uid, updatedAt] of [['a', 10], ['b', 30], ['c', 20], ['d', 30]] as const) touch(insert(uid), updatedAt)
      const first = store.sessions.list({ workspaceId, limit: 3 })
      expect(first.items.map((s) => s.id)).toEqual(['d', 'b', 'c']) // equal times: the later row first
      expect(first.nextCursor).not.toBeNull()
      const second = store.sessions.list({ workspaceId, limit: 3, cursor: first.nextCursor })
      expect(second).toMatchObject({ items: [{ id: 'a' }], nextCursor: null })
      expect(() => store.sessions.list({ workspaceId, limit: 3, cursor: 'x.1' })).toThrow(/cursor is not valid/)
    })

    it('filters by source, leaves warm-ups out unless asked, and matches a title, a uid or message text', () => {
      insert('plain-session', { source: 'codex', title: 'Fix 100% of bugs' })
      const warm = insert('warm', { source: 'claude-code', kind: 'sub-agent' })
      databaseOf(store).prepare('UPDATE sessions SET warmup = 1 WHERE id = ?').run(warm)
      const talk = insert('talk', { source: 'claude-code' })
      store.messages.insert({ sessionRowId: talk, seq: 0, turn: 1, role: 'user', content: 'refactor the parser' })
      const ids = (filter: { query?: string; source?: string; includeWarmups?: boolean }) => store.sessions.list({ workspaceId, limit: 10, ...filter }).items.map((s) => s.id).sort()
      expect(ids({})).toEqual(['plain-session', 'talk'])
      expect(ids({ includeWarmups: true })).toEqual(['plain-session', 'talk', 'warm'])
      expect(ids({ source: 'codex' })).toEqual(['plain-session'])
      expect(ids({ query: 'parser' })).toEqual(['talk'])
      expect(ids({ query: '100%' })).toEqual(['plain-session']) // % is literal, not a wildcard
      expect(ids({ query: '1%s' })).toEqual([]) // would match 'Fix 100% of bugs' if % were a wildcard
      expect(ids({ query: 'plain-sess' })).toEqual(['plain-session'])
      expect(store.sessions.list({ workspaceId: workspaceId + 1, limit: 10 }).items).toEqual([])
    })
  })
})
