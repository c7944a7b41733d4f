import { afterEach, describe, expect, it } from 'vitest'
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract'
import { agentWorkspace, type AgentWorkspace } from '../journal/testing/agent-workspace'
import { realFsOps } from '../journal/workspace-fs'
import { createDispatcher } from '../rpc/dispatcher'
import { databaseOf } from '../store/raw-database'

describe('fork and merge', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  function setup() {
    ws = agentWorkspace({ 'plan.md': 'v0\n' })
    ws.agent.turn('first')
    ws.writer.append({ role: 'assistant', content: 'did the first thing' })
    ws.agent.write('plan.md', 'v1\n')
    ws.agent.turn('second')
    ws.writer.append({ role: 'assistant', content: 'did the second thing' })
    ws.agent.write('plan.md', 'v2\n')
    ws.writer.closeTurn()
    const dispatch = createDispatcher<null>({ handlers: ws.rt.handlers, authorize: () => null })
    return async <K extends MethodName>(method: K, input: MethodInput<K>): Promise<MethodOutput<K>> => {
      const result = await dispatch(method, input, null)
      if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code })
      return result.data as MethodOutput<K>
    }
  }
  const transcript = async (call: ReturnType<typeof setup>, sessionId: string, kind: 'display' | 'context' = 'display') =>
    (await call('transcript.page', { sessionId, transcript: kind, limit: 500 })).items.map((m) => `${m.role}:${m.content}`)

  it('forks the conversation prefix without touching files, and never truncates the original', async () => {
    const call = setup()
    const { sessionId, rewind } = await call('sessions.fork', { sessionId: ws.writer.id, turn: 2, title: 'Try again' })
    expect(rewind).toBeNull()
    expect(await transcript(call, sessionId)).toEqual(['user:first', 'assistant:did the first thing'])
    expect(await call('sessions.get', { sessionId })).toMatchObject({ kind: 'branch', parentId: ws.writer.id, depth: 1, forkSeq: 2, title: 'Try again', sourceSessionId: null })
    expect(await transcript(call, ws.writer.id)).toHaveLength(4)
    expect(ws.text('plan.md')).toBe('v2\n')
  })

  it('forks with the files rewound to the same checkpoint, as one intent (R21)', async () => {
    const call = setup()
    const { sessionId, rewind } = await call('sessions.fork', { sessionId: ws.writer.id, turn: 2, withFiles: true })
    expect(rewind?.changed.map((c) => c.path)).toEqual(['plan.md'])
    expect(ws.text('plan.md')).toBe('v1\n')
    expect(await call('sessions.get', { sessionId })).toMatchObject({ kind: 'branch', messageCount: 2 })
  })

  it('creates no branch when the file half fails, and no file changes remain (R21)', async () => {
    setup()
    const before = databaseOf(ws.rt.store).prepare('SELECT count(*) FROM sessions').pluck().get()
    const failing = { ...realFsOps, rename: () => Promise.reject(Object.assign(new Error('EIO: injected'), { code: 'EIO' })) }
    const uid = '00000000-0000-4000-8000-000000000001'
    await expect(
      ws.rt.rewindsUnder({ ops: failing }).applyTurn(ws.writer.id, 2, { forkSessionUid: uid, alsoInTransaction: () => void ws.rt.recorder.fork(ws.writer.id, { atTurn: 2, uid }) })
    ).rejects.toMatchObject({ code: 'IO_ERROR' })
    expect(ws.rt.store.sessions.get(uid)).toBeUndefined()
    expect(databaseOf(ws.rt.store).prepare('SELECT count(*) FROM sessions').pluck().get()).toBe(before)
    expect(ws.text('plan.md')).toBe('v2\n')
  })

  it('merges a branch back by appending, or by replacing the parent\'s context since the fork', async () => {
    const call = setup()
    const { sessionId: branchId } = await call('sessions.fork', { sessionId: ws.writer.id, turn: 2, title: 'Alt' })
    const branch = ws.rt.recorder.resume(branchId)
    branch.append({ role: 'user', content: 'alternative second' })
    branch.append({ role: 'assistant', content: 'did it differently' })
    branch.closeTurn()
    expect(await call('sessions.planMerge', { branchId })).toMatchObject({ parentId: ws.writer.id, branchMessages: 2, parentMessagesSinceFork: 2 })

    const merged = await call('sessions.merge', { branchId, mode: 'replace' })
    expect(merged).toMatchObject({ parentId: ws.writer.id, firstSeq: 4, messageCount: 3 })
    expect(await transcript(call, ws.writer.id)).toEqual([
      'user:first', 'assistant:did the first thing', 'user:second', 'assistant:did the second thing',
      'system:Merged branch "Alt" (replace): 2 messages from after turn 1.', 'user:alternative second', 'assistant:did it differently'
    ])
    // The model's view: the common prefix, then the branch; the parent's own second turn is out of context.
    expect(await transcript(call, ws.writer.id, 'context')).toEqual([
      'user:first', 'assistant:did the first thing',
      'system:Merged branch "Alt" (replace): 2 messages from after turn 1.', 'user:alternative second', 'assistant:did it differently'
    ])
    expect(await call('sessions.get', { sessionId: branchId })).toMatchObject({ status: 'closed' })
    expect(databaseOf(ws.rt.store).prepare('SELECT mode FROM session_merges').pluck().all()).toEqual(['replace'])
    await expect(call('sessions.merge', { branchId: ws.writer.id })).rejects.toMatchObject({ code: 'VALIDATION' })
  })
  describe('merging again (issue 28)', () => {
    const usage = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.5 }

    async function mergedBranch(call: ReturnType<typeof setup>, mode: 'append' | 'replace' = 'append') {
      const { sessionId: branchId } = await call('sessions.fork', { sessionId: ws.writer.id, turn: 2, title: 'Alt' })
      const branch = ws.rt.recorder.resume(branchId)
      branch.append({ role: 'user', content: 'alternative second' })
      branch.append({ role: 'assistant', content: 'did it differently', usage })
      branch.closeTurn()
      await call('sessions.merge', { branchId, mode })
      return branchId
    }

    it('refuses a second merge with nothing new, leaving the parent\'s messages and usage as they were', async () => {
      const call = setup()
      const branchId = await mergedBranch(call)
      const before = await call('sessions.get', { sessionId: ws.writer.id })
      expect(before.usage).toMatchObject({ inputTokens: 100, costUsd: 0.5 })
      await expect(call('sessions.merge', { branchId })).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('already merged') as unknown })
      const after = await call('sessions.get', { sessionId: ws.writer.id })
      expect(after).toMatchObject({ messageCount: before.messageCount, turnCount: before.turnCount, usage: before.usage })
      expect(databaseOf(ws.rt.store).prepare('SELECT count(*) FROM session_merges').pluck().get()).toBe(1)
      expect(await call('sessions.planMerge', { branchId })).toMatchObject({ branchMessages: 0, alreadyMerged: 2, lastMergedAt: expect.any(Number) as unknown })
      expect(await call('sessions.get', { sessionId: branchId })).toMatchObject({ merged: { count: 1, newMessages: 0 } })
      expect(before.merged).toBeNull()
    })

    it('merges only what the branch added since its last merge', async () => {
      const call = setup()
      const branchId = await mergedBranch(call)
      const branch = ws.rt.recorder.resume(branchId)
      branch.append({ role: 'user', content: 'one more thing' })
      branch.closeTurn()
      expect(await call('sessions.get', { sessionId: branchId })).toMatchObject({ merged: { count: 1, newMessages: 1 } })
      expect(await call('sessions.planMerge', { branchId })).toMatchObject({ branchMessages: 1, alreadyMerged: 2, parentMessagesSinceFork: 0 })

      await call('sessions.merge', { branchId })
      expect((await transcript(call, ws.writer.id)).slice(4)).toEqual([
        'system:Merged branch "Alt" (append): 2 messages from after turn 1.', 'user:alternative second', 'assistant:did it differently',
        'system:Merged branch "Alt" again (append): 1 message added since the last merge.', 'user:one more thing'
      ])
      expect((await call('sessions.get', { sessionId: ws.writer.id })).usage).toMatchObject({ inputTokens: 100, costUsd: 0.5 })
      expect(await call('sessions.get', { sessionId: branchId })).toMatchObject({ merged: { count: 2, newMessages: 0 } })
      const tree = await call('sessions.tree', { workspaceId: (await call('sessions.get', { sessionId: branchId })).workspaceId })
      expect(tree.merges).toHaveLength(2)
    })

    it('a second replace takes out of context only what the parent added since the first merge', async () => {
      const call = setup()
      const branchId = await mergedBranch(call, 'replace')
      const parent = ws.rt.recorder.resume(ws.writer.id)
      parent.append({ role: 'user', content: 'parent went on' })
      parent.closeTurn()
      const branch = ws.rt.recorder.resume(branchId)
      branch.append({ role: 'user', content: 'branch went on' })
      branch.closeTurn()
      expect(await call('sessions.planMerge', { branchId })).toMatchObject({ branchMessages: 1, parentMessagesSinceFork: 1 })
      await call('sessions.merge', { branchId, mode: 'replace' })
      expect(await transcript(call, ws.writer.id, 'context')).toEqual([
        'user:first', 'assistant:did the first thing',
        'system:Merged branch "Alt" (replace): 2 messages from after turn 1.', 'user:alternative second', 'assistant:did it differently',
        'system:Merged branch "Alt" again (replace): 1 message added since the last merge.', 'user:branch went on'
      ])
    })
  })

  describe('undoing a merge (issue 28)', () => {
    const usage = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.5 }
    const checkpoints = () => databaseOf(ws.rt.store).prepare('SELECT turn, messages_before FROM checkpoints WHERE session_id = ? ORDER BY turn').all(ws.writer.rowId)
    const fts = (word: string) => databaseOf(ws.rt.store).prepare('SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?').pluck().get(word)

    for (const mode of ['append', 'replace'] as const) {
      it(`puts the parent back exactly as it was after an ${mode} merge, and the branch can be merged again`, async () => {
        const call = setup()
        const { sessionId: branchId } = await call('sessions.fork', { sessionId: ws.writer.id, turn: 2, title: 'Alt' })
        const branch = ws.rt.recorder.resume(branchId)
        branch.append({ role: 'user', content: 'alternative second' })
        branch.append({ role: 'assistant', content: 'did it differently', usage })
        branch.closeTurn()
        const display = await transcript(call, ws.writer.id)
        const context = await transcript(call, ws.writer.id, 'context')
        const { merged: _never, ...before } = await call('sessions.get', { sessionId: ws.writer.id })
        const checkpointsBefore = checkpoints()

        await call('sessions.merge', { branchId, mode })
        expect(fts('differently')).toBe(2)
        expect(await call('sessions.unmerge', { branchId })).toEqual({ parentId: ws.writer.id, removedMessages: 3 })

        expect(await transcript(call, ws.writer.id)).toEqual(display)
        expect(await transcript(call, ws.writer.id, 'context')).toEqual(context)
        expect(await call('sessions.get', { sessionId: ws.writer.id })).toMatchObject(before)
        expect(checkpoints()).toEqual(checkpointsBefore)
        expect(fts('differently')).toBe(1) // the search index lost the copies too
        expect(databaseOf(ws.rt.store).prepare('SELECT count(*) FROM session_merges').pluck().get()).toBe(0)
        expect(await call('sessions.get', { sessionId: branchId })).toMatchObject({ status: 'active', merged: null })
        expect(await call('sessions.planMerge', { branchId })).toMatchObject({ branchMessages: 2, alreadyMerged: 0 })
        await call('sessions.merge', { branchId, mode })
        expect((await transcript(call, ws.writer.id)).slice(4)).toHaveLength(3)
      })
    }

    it('refuses to undo a merge the parent went on after, or one never made', async () => {
      const call = setup()
      const { sessionId: branchId } = await call('sessions.fork', { sessionId: ws.writer.id, turn: 2, title: 'Alt' })
      await expect(call('sessions.unmerge', { branchId })).rejects.toMatchObject({ code: 'VALIDATION' })
      const branch = ws.rt.recorder.resume(branchId)
      branch.append({ role: 'user', content: 'alternative second' })
      branch.closeTurn()
      await call('sessions.merge', { branchId })
      const parent = ws.rt.recorder.resume(ws.writer.id)
      parent.append({ role: 'user', content: 'parent went on' })
      parent.closeTurn()
      await expect(call('sessions.unmerge', { branchId })).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('has messages after this merge') as unknown })
      expect(await transcript(call, ws.writer.id)).toHaveLength(7)
    })
  })
})
