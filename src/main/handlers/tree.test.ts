import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { MethodInput, MethodName, MethodOutput, TreeNode } from '../../shared/contract'
import { createDispatcher } from '../rpc/dispatcher'
import { tempDir, tempRuntime } from '../testing/temp-runtime'
import { databaseOf } from '../store/raw-database'

describe('sessions.tree', () => {
  let rt: ReturnType<typeof tempRuntime>
  beforeEach(() => {
    rt = tempRuntime()
  })
  afterEach(() => rt.dispose())

  // Through the real handler wrapper, so the output is checked against the contract too.
  async function call<K extends MethodName>(method: K, input: MethodInput<K>): Promise<MethodOutput<K>> {
    const result = await createDispatcher<null>({ handlers: rt.handlers, authorize: () => null })(method, input, null)
    if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code })
    return result.data as MethodOutput<K>
  }
  const byTitle = (nodes: TreeNode[], title: string): TreeNode => {
    const node = nodes.find((n) => n.title.startsWith(title))
    if (!node) throw new Error(`no node titled ${title}`)
    return node
  }

  it('gives every demo session with its fork, sub-agent and successor links and counts', async () => {
    const demo = await call('workspaces.openDemo', {})
    const { nodes, merges } = await call('sessions.tree', { workspaceId: demo.id })
    expect(nodes).toHaveLength(demo.sessionCount)
    expect(merges).toEqual([])
    // Oldest first.
    expect(nodes.map((n) => n.createdAt)).toEqual([...nodes.map((n) => n.createdAt)].sort((a, b) => a - b))

    const main = byTitle(nodes, 'Add full-text search')
    const explorer = byTitle(nodes, 'Explore: where are notes stored?')
    const branch = byTitle(nodes, 'Try SQLite FTS5')
    const flaky = byTitle(nodes, 'Fix the flaky date test')
    const notes = byTitle(nodes, 'Write release notes')
    expect(main).toMatchObject({ kind: 'main', source: 'native', parentId: null, predecessorId: null, forkSeq: null, filesChanged: 1 })
    expect(explorer).toMatchObject({ kind: 'sub-agent', parentId: main.id, filesChanged: 0 })
    expect(explorer.forkSeq).not.toBeNull()
    expect(branch).toMatchObject({ kind: 'branch', parentId: main.id })
    expect(notes).toMatchObject({ predecessorId: flaky.id, parentId: null })
    // The bug hunt changed two files, one of them in two turns: counted once.
    expect(flaky.filesChanged).toBe(2)

    const list = await call('sessions.list', { workspaceId: demo.id, limit: 100 })
    for (const summary of list.items) {
      expect(nodes.find((n) => n.id === summary.id)).toMatchObject({
        turnCount: summary.turnCount,
        messageCount: summary.messageCount,
        updatedAt: summary.updatedAt,
        status: summary.status
      })
    }
  })

  it('lists merges with their mode, and does not count a rewind as the session\'s own work', async () => {
    const demo = await call('workspaces.openDemo', {})
    const before = await call('sessions.tree', { workspaceId: demo.id })
    const branch = byTitle(before.nodes, 'Try SQLite FTS5')
    await call('sessions.merge', { branchId: branch.id, mode: 'replace' })
    const flaky = byTitle(before.nodes, 'Fix the flaky date test')
    const plan = await call('rewind.plan', { sessionId: flaky.id, turn: 1 })
    await call('rewind.apply', { sessionId: flaky.id, turn: 1, token: plan.token })

    // The rewind journaled what it replaced in a scope of its own, under the same session.
    const rewindScope = databaseOf(rt.store)
      .prepare("SELECT id FROM journal_scopes WHERE session_id = ? AND kind = 'rewind'")
      .pluck()
      .get(rt.store.sessions.require(flaky.id).rowId) as number
    databaseOf(rt.store)
      .prepare("INSERT INTO journal_entries (scope_id, op, path, observed, created_at) VALUES (?, 'mode', ?, 'rewind', 0)")
      .run(rewindScope, Buffer.from('not-the-agents.txt'))

    const after = await call('sessions.tree', { workspaceId: demo.id })
    expect(after.merges).toEqual([{ branchId: branch.id, intoId: branch.parentId, mode: 'replace', createdAt: expect.any(Number) as number }])
    expect(byTitle(after.nodes, 'Fix the flaky date test').filesChanged).toBe(2)
  })

  it('keeps links inside the workspace, and refuses an unknown one', async () => {
    const demo = await call('workspaces.openDemo', {})
    const dir = tempDir()
    try {
      const other = await call('workspaces.open', { path: dir.path })
      const { nodes } = await call('sessions.tree', { workspaceId: demo.id })
      const main = byTitle(nodes, 'Add full-text search')
      const mainRow = rt.store.sessions.require(main.id).rowId
      // A session of another workspace whose recorded parent is in the demo (e.g. an import
      // that matched a moved folder): drawn as a root there, not as a dangling edge.
      const child = rt.recorder.startSession({ workspaceId: other.id, title: 'Elsewhere' })
      rt.store.sessions.link(rt.store.sessions.require(child.id).rowId, { parentRowId: mainRow, forkSeq: 0, depth: 1 })
      expect((await call('sessions.tree', { workspaceId: other.id })).nodes).toMatchObject([{ title: 'Elsewhere', parentId: null }])
    } finally {
      dir.dispose()
    }
    await expect(call('sessions.tree', { workspaceId: 9999 })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
