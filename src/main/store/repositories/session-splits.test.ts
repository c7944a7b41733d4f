import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type MessageRole } from '../../../shared/contract'
import { openStore, type Store } from '../store'
import { type NewSession } from './sessions'

describe('moving the line a user left inside the agent into a branch (session splits)', () => {
  let dataDir: string
  let store: Store
  let workspaceId: number
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'retrace-splits-'))
    store = openStore(dataDir)
    workspaceId = store.workspaces.open(join(dataDir, 'w'), 'w')
  })
  afterEach(() => {
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const session = (uid: string, fields: Partial<NewSession> = {}) =>
    store.sessions.insert({ uid, workspaceId, source: 'claude-code', title: uid, kind: 'main', createdAt: 1, ...fields })
  const message = (sessionRowId: number, seq: number, turn: number, role: MessageRole, content = '', extra: { toolCallId?: string; inputTokens?: number; costUsd?: number } = {}) =>
    store.messages.insert({
      sessionRowId,
      seq,
      turn,
      role,
      content,
      toolCallId: extra.toolCallId ?? null,
      usage: extra.inputTokens === undefined ? null : { inputTokens: extra.inputTokens, outputTokens: 1, cacheReadTokens: 2, cacheWriteTokens: 3, costUsd: extra.costUsd ?? null }
    })
  const progress = (rowId: number, counts: { messageCount: number; turnCount: number; inputTokens: number; costUsd: number | null }) =>
    store.sessions.saveProgress(rowId, { ...counts, updatedAt: 900, outputTokens: 2, cacheReadTokens: 4, cacheWriteTokens: 6, model: 'model-a' })
  /** A branch as the importer makes it: holding a copy of the session's prefix before the tail. */
  const branchOf = (mainRowId: number, seq: number, turn: number) => {
    const rowId = session('branch', { kind: 'branch', parentRowId: mainRowId, forkSeq: seq, depth: 1, rewoundInAgent: true })
    store.messages.copyPrefix(mainRowId, rowId, seq)
    store.checkpoints.copyBefore(mainRowId, rowId, turn)
    return rowId
  }

  /** Turn 1: prompt and a tool call; turn 2: prompt, tool call, result; turn 3: prompt. */
  const mainWithThreeTurns = () => {
    const main = session('main')
    message(main, 0, 1, 'user', 'first prompt')
    message(main, 1, 1, 'tool_call', '', { toolCallId: 'call-kept', inputTokens: 10, costUsd: 0.25 })
    message(main, 2, 2, 'user', 'second prompt')
    message(main, 3, 2, 'tool_call', '', { toolCallId: 'call-left', inputTokens: 20, costUsd: 0.5 })
    message(main, 4, 2, 'tool_result', 'ok', { toolCallId: 'call-left' })
    message(main, 5, 3, 'user', 'third prompt')
    progress(main, { messageCount: 6, turnCount: 3, inputTokens: 30, costUsd: 0.75 })
    for (const [turn, messagesBefore] of [[1, 0], [2, 2], [3, 5]] as const) store.checkpoints.create({ sessionRowId: main, turn, messagesBefore, createdAt: turn })
    return main
  }

  it("moves the tail's messages, checkpoints and turn scopes, and splits the counters and usage between the two", () => {
    const main = mainWithThreeTurns()
    const scopes = [1, 2, 3].map((turn) => store.journal.openScope({ workspaceId, sessionRowId: main, turn, kind: 'turn' }))
    const rewindScope = store.journal.openScope({ workspaceId, sessionRowId: main, turn: 2, kind: 'rewind' })
    const branch = branchOf(main, 2, 2)
    store.transaction(() => store.splits.moveTail({ fromRowId: main, toRowId: branch, seq: 2, turn: 2, midTurn: false }))

    expect(store.messages.rowsFrom(main, 0).map((m) => m.seq)).toEqual([0, 1])
    expect(store.messages.rowsFrom(branch, 0).map((m) => m.seq)).toEqual([0, 1, 2, 3, 4, 5]) // seqs kept
    expect(store.checkpoints.list(main).map((c) => c.turn)).toEqual([1])
    expect(store.checkpoints.list(branch).map((c) => c.turn)).toEqual([1, 2, 3])
    expect(scopes.map((id) => store.journal.scope(id)?.sessionRowId)).toEqual([main, branch, branch])
    expect(store.journal.scope(rewindScope)?.sessionRowId).toBe(main) // a rewind is not the tail's work
    expect(store.sessions.get('main')).toMatchObject({
      messageCount: 2,
      turnCount: 1, // the left turn's prompt went with it
      updatedAt: 900,
      model: 'model-a',
      usage: { inputTokens: 10, outputTokens: 1, cacheReadTokens: 2, cacheWriteTokens: 3, costUsd: 0.25 }
    })
    expect(store.sessions.get('branch')).toMatchObject({
      messageCount: 6,
      turnCount: 3,
      updatedAt: 900,
      model: 'model-a',
      usage: { inputTokens: 20, outputTokens: 1, cacheReadTokens: 2, cacheWriteTokens: 3, costUsd: 0.5 }
    })
    expect(store.splits.promptOfTurn(branch, 2)).toBe('second prompt')
    expect(store.splits.promptOfTurn(main, 2)).toBeUndefined()
    expect(store.splits.promptOfTurn(main, 1)).toBe('first prompt')
  })

  it('keeps the turn with the session when the tail starts inside it (a retried answer)', () => {
    const main = mainWithThreeTurns()
    const branch = branchOf(main, 3, 2)
    store.splits.moveTail({ fromRowId: main, toRowId: branch, seq: 3, turn: 2, midTurn: true })
    expect(store.sessions.get('main')).toMatchObject({ messageCount: 3, turnCount: 2 })
    expect(store.checkpoints.list(main).map((c) => c.turn)).toEqual([1]) // the turn's checkpoint closed the answer that left
  })

  it('moves the sessions started from the tail one level deeper, and leaves a branch forked at the same seq as a sibling', () => {
    const main = mainWithThreeTurns()
    session('agent-before', { kind: 'sub-agent', parentRowId: main, forkSeq: 1, depth: 1 })
    const agentInTail = session('agent-in-tail', { kind: 'sub-agent', parentRowId: main, forkSeq: 3, depth: 1 })
    session('its-agent', { kind: 'sub-agent', parentRowId: agentInTail, forkSeq: 0, depth: 2 })
    session('agent-at-seq', { kind: 'sub-agent', parentRowId: main, forkSeq: 2, depth: 1 })
    session('sibling-branch', { kind: 'branch', parentRowId: main, forkSeq: 2, depth: 1 })
    const branch = branchOf(main, 2, 2)
    store.splits.moveTail({ fromRowId: main, toRowId: branch, seq: 2, turn: 2, midTurn: false })
    const placed = (uid: string) => {
      const found = store.sessions.require(uid)
      return [found.parentId, found.depth]
    }
    expect(placed('agent-before')).toEqual(['main', 1])
    expect(placed('agent-in-tail')).toEqual(['branch', 2])
    expect(placed('its-agent')).toEqual(['agent-in-tail', 3])
    expect(placed('agent-at-seq')).toEqual(['branch', 2])
    expect(placed('sibling-branch')).toEqual(['main', 1])
    expect(placed('branch')).toEqual(['main', 1])
  })

  it("moves the session's context start back to its last compaction before the tail (or the start)", () => {
    const main = session('main')
    for (const [seq, turn, role] of [[0, 1, 'user'], [1, 1, 'compaction_summary'], [2, 2, 'user'], [3, 2, 'compaction_summary'], [4, 3, 'user']] as const) message(main, seq, turn, role)
    progress(main, { messageCount: 5, turnCount: 3, inputTokens: 0, costUsd: null })
    store.sessions.setContextStart(main, 3)
    const branch = branchOf(main, 2, 2)
    store.splits.moveTail({ fromRowId: main, toRowId: branch, seq: 2, turn: 2, midTurn: false })
    expect(store.sessions.get('main')).toMatchObject({ contextStartSeq: 1, usage: { costUsd: null } })
    expect(store.sessions.get('branch')?.contextStartSeq).toBe(3)

    const early = session('early')
    message(early, 0, 1, 'user')
    message(early, 1, 2, 'compaction_summary')
    store.sessions.setContextStart(early, 1)
    const earlyBranch = session('early-branch', { kind: 'branch', parentRowId: early, forkSeq: 1, depth: 1 })
    store.splits.moveTail({ fromRowId: early, toRowId: earlyBranch, seq: 1, turn: 2, midTurn: true })
    expect(store.sessions.get('early')?.contextStartSeq).toBe(0)
  })

  it("finds the session holding a tool call: the session's own copy first, else a line split off it", () => {
    const main = mainWithThreeTurns()
    const branch = branchOf(main, 2, 2)
    store.splits.moveTail({ fromRowId: main, toRowId: branch, seq: 2, turn: 2, midTurn: false })
    expect(store.splits.toolCallOwner(main, 'call-kept')).toEqual({ rowId: main, depth: 0, seq: 1 })
    expect(store.splits.toolCallOwner(main, 'call-left')).toEqual({ rowId: branch, depth: 1, seq: 3 })
    expect(store.splits.toolCallOwner(main, 'call-unknown')).toBeUndefined()
    expect(() => store.splits.moveTail({ fromRowId: main + 100, toRowId: branch, seq: 0, turn: 1, midTurn: false })).toThrow(/No session/)
  })
})
