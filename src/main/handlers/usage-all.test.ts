import { describe, expect, it } from 'vitest'
import { contractCaller, importTestbed } from '../sources/testing/import-testbed'
import type { AllUsage, UsageRow } from '../../shared/contract'

const { tempDir, runtime } = importTestbed('retrace-usage-all-')

/** A time of a day of March 2026, local time: the report's days are the person's. */
const at = (d: number, hour = 12, minute = 0) => new Date(2026, 2, d, hour, minute).getTime()

const brief = (rows: readonly UsageRow[]) => rows.map((r) => [r.key, r.sessions, r.inputTokens, r.outputTokens, r.cacheReadTokens, r.cacheWriteTokens, r.costUsd === null ? null : Number(r.costUsd.toFixed(6))])

describe('usage.all: every workspace\'s tokens and cost by day, model, source and workspace', () => {
  function twoWorkspaces() {
    const rt = runtime({})
    const call = contractCaller(rt)
    const apiPath = tempDir()
    const webPath = tempDir()
    const api = rt.store.workspaces.open(apiPath, 'api')
    const web = rt.store.workspaces.open(webPath, 'web')
    // api, 1 March (23:50 local, a quarter hour before midnight) and 2 March (00:05): Sonnet 4.5.
    const claude = rt.recorder.startSession({ workspaceId: api, source: 'claude-code', title: 'a', createdAt: at(1, 23, 50) })
    claude.append({ role: 'user', content: 'one', createdAt: at(1, 23, 50) })
    claude.append({ role: 'assistant', content: 'x', model: 'claude-sonnet-4-5-20250929', usage: { outputTokens: 1_000_000, cacheReadTokens: 1_000_000 }, createdAt: at(1, 23, 55) }) // $15.30
    claude.append({ role: 'user', content: 'two', createdAt: at(2, 0, 5) })
    claude.append({ role: 'assistant', content: 'y', model: 'claude-haiku-4-5-20251001', usage: { inputTokens: 1_000_000 }, createdAt: at(2, 0, 5) }) // $1
    claude.closeTurn()
    // A fork made in Retrace at turn 2 copies turn 1: the parent's tokens, not counted again.
    const branch = rt.recorder.fork(claude.id, { atTurn: 2 })
    branch.append({ role: 'user', content: 'other', createdAt: at(2) })
    branch.append({ role: 'assistant', content: 'z', model: 'claude-haiku-4-5', usage: { outputTokens: 200_000, cacheWriteTokens: 800_000 }, createdAt: at(2) }) // $1 + $1
    // web, 3 March: Codex with a recorded cost, which wins over the table's.
    const codex = rt.recorder.startSession({ workspaceId: web, source: 'codex', title: 'b', createdAt: at(3) })
    codex.append({ role: 'user', content: 'go', createdAt: at(3) })
    codex.append({ role: 'assistant', content: 'w', model: 'gpt-5', usage: { inputTokens: 10, outputTokens: 20, costUsd: 0.25 }, createdAt: at(3) })
    return { rt, call, api, web, apiPath, webPath, branchId: branch.id }
  }

  it('counts each message once across workspaces, forks and merges, each day local', async () => {
    const { call, apiPath, webPath, api, web, branchId } = twoWorkspaces()
    const usage = await call('usage.all', {})
    expect(brief(usage.byDay)).toEqual([
      ['2026-03-01', 1, 0, 1_000_000, 1_000_000, 0, 15.3],
      ['2026-03-02', 2, 1_000_000, 200_000, 0, 800_000, 3],
      ['2026-03-03', 1, 10, 20, 0, 0, 0.25]
    ])
    expect(brief(usage.byDay[1]?.models ?? [])).toEqual([
      ['claude-haiku-4-5', 1, 0, 200_000, 0, 800_000, 2],
      ['claude-haiku-4-5-20251001', 1, 1_000_000, 0, 0, 0, 1]
    ])
    expect(brief(usage.bySource)).toEqual([
      ['claude-code', 2, 1_000_000, 1_200_000, 1_000_000, 800_000, 18.3],
      ['codex', 1, 10, 20, 0, 0, 0.25]
    ])
    expect(usage.byWorkspace.map((row) => [row.workspaceId, row.key, row.sessions, Number(row.costUsd?.toFixed(6))])).toEqual([
      [api, apiPath, 2, 18.3],
      [web, webPath, 1, 0.25]
    ])
    expect(brief([usage.total])).toEqual([['total', 3, 1_000_010, 1_200_020, 1_000_000, 800_000, 18.55]])
    // A merge copies the branch's messages into its parent: still spent once.
    await call('sessions.merge', { branchId })
    expect((await call('usage.all', {})).total).toEqual(usage.total)
  })

  it('takes a range of days, inclusive, and a set of workspaces', async () => {
    const { call, web } = twoWorkspaces()
    const days = (usage: AllUsage) => usage.byDay.map((row) => row.key)
    expect(days(await call('usage.all', { since: '2026-03-02' }))).toEqual(['2026-03-02', '2026-03-03'])
    expect(days(await call('usage.all', { until: '2026-03-02' }))).toEqual(['2026-03-01', '2026-03-02'])
    expect(days(await call('usage.all', { since: '2026-03-02', until: '2026-03-02' }))).toEqual(['2026-03-02'])
    expect(days(await call('usage.all', { workspaceIds: [web] }))).toEqual(['2026-03-03'])
    await expect(call('usage.all', { since: '2026-03-03', until: '2026-03-01' })).rejects.toMatchObject({ code: 'VALIDATION' })
    await expect(call('usage.all', { since: '20260303' })).rejects.toMatchObject({ code: 'VALIDATION' })
  })
})
