import { describe, expect, it } from 'vitest'
import type { TreeNode } from '../../../../shared/contract'
import { NO_FILTERS } from '../../state/session-filter'
import { filterTree } from './tree-filter'

const node = (id: string, over: Partial<TreeNode> = {}): TreeNode => ({
  id,
  title: `session ${id}`,
  titleOrigin: 'own',
  kind: 'main',
  source: 'claude-code',
  parentId: null,
  missingParent: null,
  warmup: false,
  forkSeq: null,
  predecessorId: null,
  createdAt: 1_000,
  updatedAt: 2_000,
  turnCount: 1,
  messageCount: 2,
  filesChanged: 0,
  costUsd: null,
  status: 'closed',
  forkTurn: null,
  rewoundInAgent: false,
  merged: null,
  coverage: { recorded: 0, notCaptured: 0, uncapturedCommands: 0, agentKeepsNoContent: false },
  ...over
})

// root ─┬─ fork (branch) ── sub (sub-agent of fork)
//       └─ next (continues root after /clear)
// other (unrelated)
const sessions = [
  node('root'),
  node('fork', { kind: 'branch', parentId: 'root', createdAt: 1_100, filesChanged: 3 }),
  node('sub', { kind: 'sub-agent', parentId: 'fork', createdAt: 1_200 }),
  node('next', { predecessorId: 'root', createdAt: 1_300 }),
  node('other', { createdAt: 1_400, title: 'Unrelated' })
]
const ids = (tree: ReturnType<typeof filterTree>) => tree.nodes.map((session) => session.id)

describe('filterTree', () => {
  it('keeps everything without filters', () => {
    const tree = filterTree(sessions, NO_FILTERS)
    expect(ids(tree)).toEqual(['root', 'fork', 'sub', 'next', 'other'])
    expect(tree.context.size).toBe(0)
  })

  it('keeps a match with its ancestors, drawn as context', () => {
    const tree = filterTree(sessions, { ...NO_FILTERS, query: 'session sub' })
    expect(ids(tree)).toEqual(['root', 'fork', 'sub'])
    expect([...tree.context].sort()).toEqual(['fork', 'root'])
  })

  it('filters branches only and changed files', () => {
    expect(ids(filterTree(sessions, { ...NO_FILTERS, branchesOnly: true }))).toEqual(['root', 'fork'])
    expect(ids(filterTree(sessions, { ...NO_FILTERS, changedFiles: true }))).toEqual(['root', 'fork'])
  })

  it('focuses on a session: its ancestors and descendants only', () => {
    expect(ids(filterTree(sessions, { ...NO_FILTERS, focusId: 'fork' }))).toEqual(['root', 'fork', 'sub'])
    expect(ids(filterTree(sessions, { ...NO_FILTERS, focusId: 'root' }))).toEqual(['root', 'fork', 'sub', 'next'])
    // A focus on a session no longer there shows everything rather than nothing.
    expect(ids(filterTree(sessions, { ...NO_FILTERS, focusId: 'gone' }))).toHaveLength(5)
  })

  it('combines a focus with the other filters', () => {
    expect(ids(filterTree(sessions, { ...NO_FILTERS, focusId: 'root', query: 'unrelated' }))).toEqual([])
  })
})
