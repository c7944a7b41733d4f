import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type MessageRole } from '../../../shared/contract'
import { openStore, type Store } from '../store'
import { WARMUP_PROMPT } from './session-links'
import { type NewSession } from './sessions'

describe('how imported sessions find their place (session links)', () => {
  let dataDir: string
  let store: Store
  let workspaceId: number
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'retrace-session-links-'))
    store = openStore(dataDir)
    workspaceId = store.workspaces.open(join(dataDir, 'w'), 'w')
  })
  afterEach(() => {
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const session = (uid: string, fields: Partial<NewSession> = {}) =>
    store.sessions.insert({ uid, workspaceId, source: 'claude-code', title: uid, kind: 'main', createdAt: 1, ...fields })
  /** A session holding these messages, its message count saved as a writer saves it. */
  const withMessages = (rowId: number, messages: [MessageRole, string][]) => {
    messages.forEach(([role, content], seq) => store.messages.insert({ sessionRowId: rowId, seq, turn: 1, role, content }))
    store.sessions.saveProgress(rowId, { messageCount: messages.length, turnCount: 1, updatedAt: 1, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null, model: null })
    return rowId
  }
  const warmup = (uid: string) => store.sessions.require(uid).warmup

  it('hangs the sub-agents that name a session below it once it is imported, and counts them', () => {
    const elsewhere = store.workspaces.open(join(dataDir, 'elsewhere'), 'elsewhere')
    session('agent-1', { kind: 'sub-agent', parentSourceId: 'parent-sid' })
    session('agent-2', { kind: 'sub-agent', parentSourceId: 'parent-sid' })
    session('other-source', { kind: 'sub-agent', source: 'codex', parentSourceId: 'parent-sid' })
    store.sessions.insert({ uid: 'other-workspace', workspaceId: elsewhere, source: 'claude-code', title: '', kind: 'sub-agent', parentSourceId: 'parent-sid', createdAt: 1 })
    const earlier = session('earlier')
    session('already-placed', { kind: 'sub-agent', parentSourceId: 'parent-sid', parentRowId: earlier, depth: 1 })
    const parent = session('parent', { sourceSessionId: 'parent-sid', depth: 2 })

    expect(store.sessionLinks.adoptOrphans({ rowId: parent, workspaceId, source: 'claude-code', sourceSessionId: 'parent-sid', depth: 2 })).toBe(2)
    const placed = (uid: string) => {
      const found = store.sessions.require(uid)
      return [found.parentId, found.depth, found.missingParent]
    }
    expect(placed('agent-1')).toEqual(['parent', 3, null])
    expect(placed('agent-2')).toEqual(['parent', 3, null])
    expect(placed('other-source')).toEqual([null, 0, 'parent-sid'])
    expect(placed('other-workspace')).toEqual([null, 0, 'parent-sid'])
    expect(placed('already-placed')).toEqual(['earlier', 1, null])
    expect(store.sessionLinks.adoptOrphans({ rowId: parent, workspaceId, source: 'claude-code', sourceSessionId: 'parent-sid', depth: 2 })).toBe(0)
  })

  it('never makes a session its own parent', () => {
    const self = session('self', { kind: 'sub-agent', sourceSessionId: 'sid', parentSourceId: 'sid' })
    expect(store.sessionLinks.adoptOrphans({ rowId: self, workspaceId, source: 'claude-code', sourceSessionId: 'sid', depth: 0 })).toBe(0)
    expect(store.sessions.require('self').parentId).toBeNull()
  })

  it('flags a warm-up agent: messages, no tool call, and no prompt but the warm-up word', () => {
    const parent = session('parent')
    const agent = (uid: string, messages: [MessageRole, string][]) => {
      const rowId = withMessages(session(uid, { kind: 'sub-agent', parentRowId: parent, depth: 1 }), messages)
      store.sessionLinks.refreshWarmup(rowId)
      return warmup(uid)
    }
    expect(agent('warmup', [['user', WARMUP_PROMPT], ['assistant', 'Ready.']])).toBe(true)
    expect(agent('answer-only', [['assistant', 'Ready.']])).toBe(true) // what 2.0.42 and 2.0.44 wrote
    expect(agent('prompted', [['user', 'Find the bug'], ['assistant', 'Found.']])).toBe(false)
    expect(agent('used-a-tool', [['user', WARMUP_PROMPT], ['tool_call', '']])).toBe(false)
    expect(agent('empty', [])).toBe(false)
    // Not an agent: a main session is never a warm-up agent, whatever it holds.
    const main = withMessages(session('main-like'), [['user', WARMUP_PROMPT]])
    store.sessionLinks.refreshWarmup(main)
    expect(warmup('main-like')).toBe(false)
  })

  it('flags a session left before its first prompt: no messages and only warm-up sub-agents', () => {
    const shell = session('shell')
    const warm = withMessages(session('warm', { kind: 'sub-agent', parentRowId: shell, depth: 1 }), [['user', WARMUP_PROMPT]])
    store.sessionLinks.refreshWarmup(warm)
    store.sessionLinks.refreshWarmup(shell)
    expect(warmup('shell')).toBe(true)
    // A real sub-agent makes it a session the user worked in.
    const real = withMessages(session('real', { kind: 'sub-agent', parentRowId: shell, depth: 1 }), [['user', 'do it']])
    store.sessionLinks.refreshWarmup(real)
    store.sessionLinks.refreshWarmup(shell)
    expect(warmup('shell')).toBe(false)
    const childless = session('childless')
    store.sessionLinks.refreshWarmup(childless)
    expect(warmup('childless')).toBe(false)
  })

  it('counts warm-ups per workspace, optionally of one source', () => {
    const parent = session('parent')
    for (const [uid, source] of [['a', 'claude-code'], ['b', 'claude-code'], ['c', 'other']] as const) {
      const rowId = withMessages(session(uid, { kind: 'sub-agent', source, parentRowId: parent, depth: 1 }), [['user', WARMUP_PROMPT]])
      store.sessionLinks.refreshWarmup(rowId)
    }
    expect(store.sessionLinks.countWarmups(workspaceId)).toBe(3)
    expect(store.sessionLinks.countWarmups(workspaceId, 'claude-code')).toBe(2)
    expect(store.sessionLinks.countWarmups(workspaceId, 'codex')).toBe(0)
    expect(store.sessionLinks.countWarmups(workspaceId + 1)).toBe(0)
  })

  it('finds the session holding a message by its source id: the earliest when a fork holds a copy', () => {
    const insertWithUid = (rowId: number, sourceUid: string) => store.messages.insert({ sessionRowId: rowId, seq: 0, turn: 1, role: 'user', content: '', sourceUid })
    insertWithUid(session('fork', { createdAt: 20 }), 'line-1')
    insertWithUid(session('original', { createdAt: 10 }), 'line-1')
    insertWithUid(session('codex-one', { source: 'codex', createdAt: 1 }), 'line-2')
    expect(store.sessionLinks.sessionHolding(workspaceId, 'claude-code', 'line-1')).toBe('original')
    expect(store.sessionLinks.sessionHolding(workspaceId, 'claude-code', 'line-2')).toBeUndefined() // another source's line
    expect(store.sessionLinks.sessionHolding(workspaceId, 'codex', 'line-2')).toBe('codex-one')
    expect(store.sessionLinks.sessionHolding(workspaceId + 1, 'claude-code', 'line-1')).toBeUndefined()
  })
})
