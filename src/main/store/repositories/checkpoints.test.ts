import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EMPTY_COVERAGE } from '../../../shared/coverage'
import { openStore, type Store } from '../store'

describe('chat checkpoints, one per closed turn (checkpoints)', () => {
  let dataDir: string
  let store: Store
  let workspaceId: number
  let sessionRowId: number
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'retrace-checkpoints-'))
    store = openStore(dataDir)
    workspaceId = store.workspaces.open(join(dataDir, 'w'), 'w')
    sessionRowId = store.sessions.insert({ uid: 's', workspaceId, source: 'retrace', title: 'S', kind: 'main', createdAt: 1 })
  })
  afterEach(() => {
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('keeps the first checkpoint of a turn and lists them by turn', () => {
    store.checkpoints.create({ sessionRowId, turn: 2, messagesBefore: 4, createdAt: 20 })
    store.checkpoints.create({ sessionRowId, turn: 1, messagesBefore: 0, createdAt: 10 })
    store.checkpoints.create({ sessionRowId, turn: 2, messagesBefore: 9, createdAt: 99 }) // the turn has one already
    expect(store.checkpoints.list(sessionRowId)).toEqual([
      { turn: 1, messagesBefore: 0, invalidated: false, uncapturedCommands: 0, notCaptured: [], coverage: EMPTY_COVERAGE, createdAt: 10 },
      { turn: 2, messagesBefore: 4, invalidated: false, uncapturedCommands: 0, notCaptured: [], coverage: EMPTY_COVERAGE, createdAt: 20 }
    ])
  })

  it("invalidates a turn's checkpoint once, and says whether this call changed it", () => {
    store.checkpoints.create({ sessionRowId, turn: 1, messagesBefore: 0, createdAt: 10 })
    expect(store.checkpoints.invalidate(sessionRowId, 1)).toBe(true)
    expect(store.checkpoints.invalidate(sessionRowId, 1)).toBe(false)
    expect(store.checkpoints.invalidate(sessionRowId, 2)).toBe(false) // no checkpoint for that turn
    expect(store.checkpoints.list(sessionRowId)[0]?.invalidated).toBe(true)
  })

  it('adds up uncaptured shell commands, false where the turn has no checkpoint yet', () => {
    store.checkpoints.create({ sessionRowId, turn: 1, messagesBefore: 0, createdAt: 10 })
    expect(store.checkpoints.addUncaptured(sessionRowId, 1, 2)).toBe(true)
    expect(store.checkpoints.addUncaptured(sessionRowId, 1, 3)).toBe(true)
    expect(store.checkpoints.addUncaptured(sessionRowId, 2, 1)).toBe(false)
    expect(store.checkpoints.list(sessionRowId)).toEqual([
      { turn: 1, messagesBefore: 0, invalidated: false, uncapturedCommands: 5, notCaptured: [], coverage: { ...EMPTY_COVERAGE, uncapturedCommands: 5 }, createdAt: 10 }
    ])
  })

  it('restores an exported checkpoint exactly, and a fork copies those before its turn', () => {
    const notCaptured = [{ turn: 3, tool: 'NotebookEdit', path: 'a.ipynb', reason: 'the agent keeps no cell content' }]
    const exported = { turn: 3, messagesBefore: 6, invalidated: true, uncapturedCommands: 2, notCaptured, coverage: { ...EMPTY_COVERAGE, notCaptured: 1, uncapturedCommands: 2 }, createdAt: 30 }
    store.checkpoints.create({ sessionRowId, turn: 1, messagesBefore: 0, createdAt: 10 })
    store.checkpoints.create({ sessionRowId, turn: 2, messagesBefore: 3, createdAt: 20 })
    store.notCaptured.add(sessionRowId, { turn: 2, tool: 'write_to_file', path: 'b.ts', reason: 'no content after the edit', toolCallId: 'c1', sourceFile: '/h', sourceOffset: 5 })
    store.checkpoints.restore(sessionRowId, exported)
    expect(store.checkpoints.list(sessionRowId).at(-1)).toEqual(exported)
    expect(store.sessions.get('s')?.coverage).toEqual({ recorded: 0, notCaptured: 2, uncapturedCommands: 2, agentKeepsNoContent: false })

    const fork = store.sessions.insert({ uid: 'fork', workspaceId, source: 'retrace', title: 'F', kind: 'branch', parentRowId: sessionRowId, createdAt: 2 })
    store.checkpoints.copyBefore(sessionRowId, fork, 3)
    expect(store.checkpoints.list(fork)).toEqual(store.checkpoints.list(sessionRowId).slice(0, 2))
    expect(store.checkpoints.list(fork).map((c) => c.turn)).toEqual([1, 2])
    expect(store.checkpoints.list(fork)[1]?.notCaptured).toEqual([{ turn: 2, tool: 'write_to_file', path: 'b.ts', reason: 'no content after the edit' }])
  })

  it('are removed with their session, not-captured changes too', () => {
    store.checkpoints.create({ sessionRowId, turn: 1, messagesBefore: 0, createdAt: 10 })
    store.notCaptured.add(sessionRowId, { turn: 1, tool: 'x', path: null, reason: 'r', toolCallId: null, sourceFile: null, sourceOffset: null })
    store.sessions.delete(sessionRowId)
    expect(store.checkpoints.list(sessionRowId)).toEqual([])
    expect(store.notCaptured.list(sessionRowId)).toEqual([])
  })

  it("forget an undone merge's turns with their not-captured changes", () => {
    for (const turn of [1, 2]) {
      store.checkpoints.create({ sessionRowId, turn, messagesBefore: turn, createdAt: 10 })
      store.notCaptured.add(sessionRowId, { turn, tool: 'x', path: null, reason: 'r', toolCallId: null, sourceFile: null, sourceOffset: null })
    }
    store.checkpoints.deleteAfter(sessionRowId, 1)
    expect(store.notCaptured.list(sessionRowId).map((change) => change.turn)).toEqual([1])
  })
})
