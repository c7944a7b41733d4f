import { describe, expect, it } from 'vitest'
import { PRICES_DATE } from '../pricing/prices'
import { contractCaller, importTestbed } from '../sources/testing/import-testbed'

const { tempDir, runtime } = importTestbed('retrace-usage-')

/** Noon, local time, of a day: the view's days are the person's. */
const day = (d: number) => new Date(2026, 2, d, 12).getTime()

describe('usage.workspace: a workspace\'s tokens and cost by day, model and source', () => {
  function workspaceWithHistory() {
    const rt = runtime({})
    const call = contractCaller(rt)
    const workspaceId = rt.store.workspaces.open(tempDir(), 'ws')
    // Claude Code, 1 March: Sonnet 4.5, 1M output ($15) and 1M cache reads ($0.30).
    const claude = rt.recorder.startSession({ workspaceId, source: 'claude-code', title: 'a', createdAt: day(1) })
    claude.append({ role: 'user', content: 'one', createdAt: day(1) })
    claude.append({ role: 'assistant', content: 'x', model: 'claude-sonnet-4-5-20250929', usage: { outputTokens: 1_000_000, cacheReadTokens: 1_000_000 }, createdAt: day(1) })
    claude.append({ role: 'user', content: 'two', createdAt: day(2) })
    // 2 March: Haiku 4.5, 1M input ($1).
    claude.append({ role: 'assistant', content: 'y', model: 'claude-haiku-4-5-20251001', usage: { inputTokens: 1_000_000 }, createdAt: day(2) })
    claude.closeTurn()
    // A branch at turn 2 copies turn 1's messages: their tokens are the parent's, counted once.
    const branch = rt.recorder.fork(claude.id, { atTurn: 2 })
    branch.append({ role: 'user', content: 'other', createdAt: day(2) })
    branch.append({ role: 'assistant', content: 'z', model: 'claude-haiku-4-5', usage: { outputTokens: 200_000 }, createdAt: day(2) }) // $1
    // Cline, 2 March: its own bill, $0.50 for what the table would price at $15.
    const cline = rt.recorder.startSession({ workspaceId, source: 'cline', title: 'b', createdAt: day(2) })
    cline.append({ role: 'user', content: 'go', createdAt: day(2) })
    cline.append({ role: 'assistant', content: 'w', model: 'claude-sonnet-4-5', usage: { outputTokens: 1_000_000, costUsd: 0.5 }, createdAt: day(2) })
    // Gemini CLI, 3 March: a model the table does not know: tokens, no cost.
    const gemini = rt.recorder.startSession({ workspaceId, source: 'gemini-cli', title: 'c', createdAt: day(3) })
    gemini.append({ role: 'user', content: 'hi', createdAt: day(3) })
    gemini.append({ role: 'assistant', content: 'v', model: 'mystery-model-1', usage: { inputTokens: 5000, outputTokens: 100 }, createdAt: day(3) })
    return { rt, call, workspaceId, branchId: branch.id }
  }

  it('sums each message once, prices by model, keeps recorded costs, and counts what it cannot price', async () => {
    const { call, workspaceId } = workspaceWithHistory()
    const usage = await call('usage.workspace', { workspaceId })
    expect(usage.pricesDate).toBe(PRICES_DATE)
    const brief = (rows: typeof usage.byDay) => rows.map((r) => [r.key, r.sessions, r.inputTokens, r.outputTokens, r.cacheReadTokens, r.costUsd === null ? null : Number(r.costUsd.toFixed(6)), r.unpricedTokens])
    expect(brief(usage.byDay)).toEqual([
      ['2026-03-03', 1, 5000, 100, 0, null, 5100],
      ['2026-03-02', 3, 1_000_000, 1_200_000, 0, 2.5, 0],
      ['2026-03-01', 1, 0, 1_000_000, 1_000_000, 15.3, 0]
    ])
    expect(brief(usage.byModel)).toEqual([
      ['claude-sonnet-4-5-20250929', 1, 0, 1_000_000, 1_000_000, 15.3, 0],
      ['claude-haiku-4-5-20251001', 1, 1_000_000, 0, 0, 1, 0],
      ['claude-haiku-4-5', 1, 0, 200_000, 0, 1, 0],
      ['claude-sonnet-4-5', 1, 0, 1_000_000, 0, 0.5, 0],
      ['mystery-model-1', 1, 5000, 100, 0, null, 5100]
    ])
    expect(brief(usage.bySource)).toEqual([
      ['claude-code', 2, 1_000_000, 1_200_000, 1_000_000, 17.3, 0],
      ['cline', 1, 0, 1_000_000, 0, 0.5, 0],
      ['gemini-cli', 1, 5000, 100, 0, null, 5100]
    ])
    expect(brief([usage.total])).toEqual([['total', 4, 1_005_000, 2_200_100, 1_000_000, 17.8, 5100]])
  })

  it('prices a branch by its own messages, as it goes and when priced again from the store', async () => {
    const { rt, call, branchId } = workspaceWithHistory()
    // Its copy of turn 1 (Sonnet, $15.30) is the parent's: the branch spent $1.
    expect((await call('sessions.get', { sessionId: branchId })).usage.costUsd).toBeCloseTo(1, 9)
    rt.store.pricing.reprice([rt.store.sessions.require(branchId).rowId])
    expect((await call('sessions.get', { sessionId: branchId })).usage.costUsd).toBeCloseTo(1, 9)
  })

  it('a merge adds the branch\'s own cost to its parent, and undoing it takes it off again', async () => {
    const { call, branchId } = workspaceWithHistory()
    const parentId = (await call('sessions.get', { sessionId: branchId })).parent?.id ?? ''
    const before = (await call('sessions.get', { sessionId: parentId })).usage.costUsd
    expect(before).toBeCloseTo(16.3, 9) // Sonnet $15.30 + Haiku $1
    const workspaceId = (await call('sessions.get', { sessionId: parentId })).workspaceId
    const totalBefore = (await call('usage.workspace', { workspaceId })).total
    await call('sessions.merge', { branchId })
    expect((await call('sessions.get', { sessionId: parentId })).usage.costUsd).toBeCloseTo(17.3, 9)
    // The workspace spent nothing more: the merged copies are not counted twice.
    expect((await call('usage.workspace', { workspaceId })).total).toEqual(totalBefore)
    await call('sessions.unmerge', { branchId })
    expect((await call('sessions.get', { sessionId: parentId })).usage.costUsd).toBeCloseTo(16.3, 9)
  })

  it('refuses a workspace that does not exist', async () => {
    const call = contractCaller(runtime({}))
    await expect(call('usage.workspace', { workspaceId: 999 })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
