import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type RelPath } from '../../fs/paths'
import { openStore, type Store } from '../store'
import { type NewSession } from './sessions'

describe('the session graph of a workspace (tree)', () => {
  let dataDir: string
  let store: Store
  let workspaceId: number
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'retrace-tree-'))
    store = openStore(dataDir)
    workspaceId = store.workspaces.open(join(dataDir, 'w'), 'w')
  })
  afterEach(() => {
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const session = (uid: string, createdAt: number, fields: Partial<NewSession> = {}) =>
    store.sessions.insert({ uid, workspaceId, source: 'retrace', title: `title ${uid}`, kind: 'main', createdAt, ...fields })
  const HASH = 'a'.repeat(64)
  const changeFiles = (sessionRowId: number, turn: number, kind: 'turn' | 'rewind', paths: string[]) => {
    const scopeId = store.journal.openScope({ workspaceId, sessionRowId, turn, kind })
    for (const path of paths) store.journal.addEntry({ scopeId, op: 'create', path: Buffer.from(path) as RelPath, fromPath: null, before: null, after: { kind: 'file', hash: HASH, size: 1, mode: 0o644 }, observed: 'scan' })
  }

  it('draws every session of the workspace in creation order, with its links and counts', () => {
    store.blobs.insert({ hash: HASH, size: 1, storage: 'inline', encoding: 'raw', dictionaryId: null, data: Buffer.from('x'), createdAt: 1 })
    const root = session('root', 10, { source: 'claude-code' })
    store.sessions.saveProgress(root, { messageCount: 8, turnCount: 3, updatedAt: 50, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.42, pricedCostUsd: 0.08, model: null })
    changeFiles(root, 1, 'turn', ['a.ts', 'b.ts'])
    changeFiles(root, 2, 'turn', ['a.ts']) // the same path again counts once
    changeFiles(root, 3, 'rewind', ['c.ts', 'd.ts']) // a rewind's changes are not the session's work
    session('next', 30, { predecessorRowId: root })
    session('orphan', 25, { kind: 'sub-agent', source: 'claude-code', parentSourceId: 'not-imported-yet' })
    store.sessions.setStatus(root, 'closed')

    expect(store.tree.nodes(workspaceId)).toEqual([
      {
        id: 'root',
        title: 'title root',
        titleOrigin: 'own',
        kind: 'main',
        source: 'claude-code',
        parentId: null,
        missingParent: null,
        warmup: false,
        forkSeq: null,
        predecessorId: null,
        createdAt: 10,
        updatedAt: 50,
        turnCount: 3,
        messageCount: 8,
        filesChanged: 2,
        // What the card shows as the session's cost: recorded plus priced.
        costUsd: 0.5,
        status: 'closed',
        rewoundInAgent: false,
        merged: null,
        forkTurn: null,
        // Three journal entries of its own turns (a rewind's are not its work), as the session list counts them.
        coverage: { recorded: 3, notCaptured: 0, uncapturedCommands: 0, agentKeepsNoContent: false }
      },
      expect.objectContaining({ id: 'orphan', kind: 'sub-agent', parentId: null, missingParent: 'not-imported-yet', filesChanged: 0 }),
      expect.objectContaining({ id: 'next', predecessorId: 'root', createdAt: 30, updatedAt: 30, status: 'active' })
    ])
  })

  it('gives a branch the last turn whose checkpoint lies at or before its fork point', () => {
    const root = session('root', 10)
    for (const [turn, messagesBefore] of [[1, 0], [2, 4], [3, 9]] as const) store.checkpoints.create({ sessionRowId: root, turn, messagesBefore, createdAt: turn })
    const branch = session('branch', 20, { kind: 'branch', parentRowId: root, forkSeq: 6, depth: 1, rewoundInAgent: true })
    store.checkpoints.copyBefore(root, branch, 3)
    session('sub', 30, { kind: 'sub-agent', parentRowId: root, forkSeq: 6, depth: 1 }) // not a branch: no fork turn
    const nodes = store.tree.nodes(workspaceId)
    expect(nodes.map((node) => [node.id, node.parentId, node.forkSeq, node.forkTurn, node.rewoundInAgent])).toEqual([
      ['root', null, null, null, false],
      ['branch', 'root', 6, 2, true],
      ['sub', 'root', 6, null, false]
    ])
  })

  it("gives a fresh fork the parent's turn it forked from, though it has no checkpoint of that turn yet", () => {
    const root = session('root', 10)
    for (const [turn, messagesBefore] of [[1, 0], [2, 4], [3, 9]] as const) store.checkpoints.create({ sessionRowId: root, turn, messagesBefore, createdAt: turn })
    // A Retrace fork "from before turn 2": the parent's first 4 messages and turn 1's checkpoint, nothing of its own yet.
    const fork = session('fork', 20, { kind: 'branch', parentRowId: root, forkSeq: 4, depth: 1 })
    store.checkpoints.copyBefore(root, fork, 2)
    expect(store.tree.nodes(workspaceId).find((node) => node.id === 'fork')?.forkTurn).toBe(2)
  })

  it('leaves out links and merges to sessions of another workspace, and other workspaces altogether', () => {
    const elsewhere = store.workspaces.open(join(dataDir, 'elsewhere'), 'elsewhere')
    const foreign = store.sessions.insert({ uid: 'foreign', workspaceId: elsewhere, source: 'retrace', title: 'F', kind: 'main', createdAt: 1 })
    const local = session('local', 5, { kind: 'child', parentRowId: foreign, predecessorRowId: foreign, depth: 1 })
    const branch = session('branch', 6, { kind: 'branch', parentRowId: local, depth: 2 })
    store.merges.add({ branchRowId: branch, intoRowId: foreign, mode: 'replace', firstSeq: 0, messageCount: 1, createdAt: 7 })
    store.merges.add({ branchRowId: branch, intoRowId: local, mode: 'replace', firstSeq: 2, messageCount: 1, createdAt: 9 })
    store.merges.add({ branchRowId: branch, intoRowId: local, mode: 'append', firstSeq: 0, messageCount: 1, createdAt: 8 })
    expect(store.tree.nodes(workspaceId).map((node) => [node.id, node.parentId, node.predecessorId, node.missingParent])).toEqual([
      ['local', null, null, null], // linked, but not drawable here: no dangling edge, and not "missing" either
      ['branch', 'local', null, null]
    ])
    expect(store.tree.merges(workspaceId)).toEqual([
      { branchId: 'branch', intoId: 'local', mode: 'append', createdAt: 8 },
      { branchId: 'branch', intoId: 'local', mode: 'replace', createdAt: 9 }
    ])
    expect(store.tree.nodes(elsewhere).map((node) => node.id)).toEqual(['foreign'])
    expect(store.tree.merges(elsewhere)).toEqual([])
    expect(store.tree.nodes(elsewhere + 1)).toEqual([])
  })
})
