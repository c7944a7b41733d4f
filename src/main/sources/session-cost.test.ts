import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PRICES_DATE } from '../pricing/prices'
import { databaseOf } from '../store/raw-database'
import { ClaudeHome, FIXTURES } from './testing/claude-home'
import { contractCaller, importTestbed } from './testing/import-testbed'

const { tempDir, runtime } = importTestbed('retrace-cost-')

/** Dollars per million tokens, from Anthropic's and OpenAI's price pages (as LiteLLM lists them on the table's date). */
const SONNET_4_5 = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }
const GPT_5_3_CODEX = { input: 1.75, output: 14, cacheRead: 0.175, cacheWrite: 1.75 }

const lines = (path: string): Record<string, unknown>[] =>
  readFileSync(path, 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line) as Record<string, unknown>)

const CLAUDE_PROJECT = join(FIXTURES, 'claude-code/claude-code-log-turns/-Users-dain-workspace-JSSoundRecorder')
const CLAUDE_SESSION = '7acd37a8-2745-4b58-a8a9-46164b22ad9e'
const CODEX_HOME = join(FIXTURES, 'codex/localpush')
const CODEX_ROLLOUT = join(CODEX_HOME, 'sessions/2026/02/23/rollout-2026-02-23T12-41-04-019c8a4d-8f45-7010-8b5d-7fad920aa6f9.jsonl')

/**
 * The file's tokens counted apart from the importer: one API response is written as several
 * lines sharing `message.id`, each with the usage known then; its final usage is the largest.
 */
function claudeTokens(path: string) {
  const responses = new Map<string, number[]>()
  for (const line of lines(path)) {
    const message = line.message as { id?: string; usage?: Record<string, number> } | undefined
    if (line.type !== 'assistant' || !message?.id || !message.usage) continue
    const u = message.usage
    const now = [u.input_tokens ?? 0, u.output_tokens ?? 0, u.cache_read_input_tokens ?? 0, u.cache_creation_input_tokens ?? 0]
    const before = responses.get(message.id) ?? [0, 0, 0, 0]
    responses.set(message.id, now.map((value, i) => Math.max(value, before[i] ?? 0)))
  }
  const sum = [0, 0, 0, 0]
  for (const counts of responses.values()) counts.forEach((value, i) => (sum[i] = (sum[i] ?? 0) + value))
  const [input = 0, output = 0, cacheRead = 0, cacheWrite = 0] = sum
  return { input, output, cacheRead, cacheWrite }
}

/** The rollout's last `total_token_usage`: Codex's input includes the cached part. */
function codexTokens(path: string) {
  let total: Record<string, number> | undefined
  for (const line of lines(path)) {
    const payload = line.payload as { type?: string; info?: { total_token_usage?: Record<string, number> } | null } | undefined
    if (payload?.type === 'token_count' && payload.info?.total_token_usage) total = payload.info.total_token_usage
  }
  const t = total ?? {}
  return { input: (t.input_tokens ?? 0) - (t.cached_input_tokens ?? 0), output: t.output_tokens ?? 0, cacheRead: t.cached_input_tokens ?? 0, cacheWrite: 0 }
}

const dollars = (tokens: ReturnType<typeof claudeTokens>, price: typeof SONNET_4_5): number =>
  (tokens.input * price.input + tokens.output * price.output + tokens.cacheRead * price.cacheRead + tokens.cacheWrite * price.cacheWrite) / 1e6

describe('the cost of real sessions, through the real import', () => {
  it('prices a Claude Code session (Sonnet 4.5) by its tokens, to the cent', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    home.addFixtureProject(CLAUDE_PROJECT, '/Users/dain/workspace/JSSoundRecorder')
    const rt = runtime({ claude: home.root })
    const call = contractCaller(rt)
    const workspaceId = rt.store.workspaces.open('/Users/dain/workspace/JSSoundRecorder', 'ws')
    await call('imports.run', { workspaceId })
    const session = (await call('sessions.list', { workspaceId })).items.find((s) => rt.store.sessions.require(s.id).sourceSessionId === CLAUDE_SESSION)
    const tokens = claudeTokens(join(CLAUDE_PROJECT, `${CLAUDE_SESSION}.jsonl`))
    expect(tokens.output).toBeGreaterThan(0)
    expect(tokens.cacheRead).toBeGreaterThan(0)
    expect(session?.usage).toMatchObject({ inputTokens: tokens.input, outputTokens: tokens.output, cacheReadTokens: tokens.cacheRead, cacheWriteTokens: tokens.cacheWrite })
    const expected = dollars(tokens, SONNET_4_5)
    expect(expected).toBeGreaterThan(0.1)
    expect(session?.usage.costUsd?.toFixed(2)).toBe(expected.toFixed(2))
    expect(session?.costPricedOn).toBe(PRICES_DATE)
    // The header's detail says the same.
    const detail = await call('sessions.get', { sessionId: session?.id ?? '' })
    expect(detail.usage.costUsd?.toFixed(2)).toBe(expected.toFixed(2))
  })

  it('prices a Codex session (gpt-5.3-codex), cached input at the cache price, to the cent', async () => {
    const rt = runtime({ codex: CODEX_HOME })
    const call = contractCaller(rt)
    const workspaceId = rt.store.workspaces.open('/redacted/path/da0ba47443', 'ws')
    await call('imports.run', { workspaceId })
    const session = (await call('sessions.list', { workspaceId })).items.find((s) => rt.store.sessions.require(s.id).sourceSessionId?.includes('019c8a4d-8f45'))
    const tokens = codexTokens(CODEX_ROLLOUT)
    expect(tokens.cacheRead).toBeGreaterThan(0)
    expect(session?.usage).toMatchObject({ inputTokens: tokens.input, outputTokens: tokens.output, cacheReadTokens: tokens.cacheRead })
    const expected = dollars(tokens, GPT_5_3_CODEX)
    expect(expected).toBeGreaterThan(0.01)
    expect(session?.usage.costUsd?.toFixed(2)).toBe(expected.toFixed(2))
    expect(session?.costPricedOn).toBe(PRICES_DATE)
  })

  it('prices sessions imported before prices existed once, at the next start', async () => {
    const dataDir = join(tempDir(), 'data')
    const first = runtime({ codex: CODEX_HOME }, { dataDir })
    const workspaceId = first.store.workspaces.open('/redacted/path/da0ba47443', 'ws')
    await first.imports.importWorkspace(workspaceId)
    const priced = first.store.sessions.list({ workspaceId, limit: 50 }).items.map((s) => [s.id, first.store.sessions.require(s.id).pricedCostUsd])
    expect(priced.some(([, cost]) => typeof cost === 'number' && cost > 0)).toBe(true)
    // As a store from before migration 020 holds them: no priced cost, priced with no table.
    databaseOf(first.store).prepare('UPDATE sessions SET priced_cost_usd = NULL, priced_with = NULL').run()
    first.close()
    const second = runtime({ codex: CODEX_HOME }, { dataDir })
    const again = second.store.sessions.list({ workspaceId, limit: 50 }).items.map((s) => [s.id, second.store.sessions.require(s.id).pricedCostUsd])
    expect(again.map(([id, cost]) => [id, typeof cost === 'number' ? cost.toFixed(6) : cost])).toEqual(
      priced.map(([id, cost]) => [id, typeof cost === 'number' ? cost.toFixed(6) : cost])
    )
    expect(second.store.pricing.anyStale()).toBe(false)
  })

  it('prices them again once when the table changes (another date in priced_with)', async () => {
    const dataDir = join(tempDir(), 'data')
    const first = runtime({ codex: CODEX_HOME }, { dataDir })
    const workspaceId = first.store.workspaces.open('/redacted/path/da0ba47443', 'ws')
    await first.imports.importWorkspace(workspaceId)
    const costs = (store: typeof first.store) =>
      store.sessions.list({ workspaceId, limit: 50 }).items.map((s) => [s.id, store.sessions.require(s.id).pricedCostUsd?.toFixed(6) ?? null])
    const priced = costs(first.store)
    // As an older table left them: its date, and a cost the current table does not give.
    databaseOf(first.store).prepare("UPDATE sessions SET priced_cost_usd = 0, priced_with = '2026-01-01'").run()
    first.close()
    const second = runtime({ codex: CODEX_HOME }, { dataDir })
    expect(costs(second.store)).toEqual(priced)
    expect(second.store.sessions.list({ workspaceId, limit: 50 }).items.every((s) => s.costPricedOn === PRICES_DATE || s.usage.costUsd === null)).toBe(true)
    expect(second.store.pricing.anyStale()).toBe(false)
  })
})

describe('a model the table does not know', () => {
  it('gives Gemini CLI\'s real gemini-3-pro sessions tokens and no cost, and the Usage view counts them unpriced', async () => {
    const { cpSync, mkdirSync } = await import('node:fs')
    const { projectHash } = await import('./gemini-cli/discover')
    const real = join(FIXTURES, 'gemini-cli/codemie/gemini')
    const workspace = tempDir()
    const home = tempDir()
    const chats = join(home, '.gemini', 'tmp', projectHash(workspace), 'chats')
    mkdirSync(chats, { recursive: true })
    for (const file of ['session-2025-12-01T21-45-5b959dae.json', 'session-2026-01-16T11-01-file-ops-37b7abef.json']) cpSync(join(real, file), join(chats, file))
    const call = contractCaller(runtime({}, { env: { GEMINI_CLI_HOME: home } }))
    const opened = await call('workspaces.open', { path: workspace })
    await call('imports.run', { workspaceId: opened.id, sources: ['gemini-cli'] })
    const sessions = (await call('sessions.list', { workspaceId: opened.id })).items
    expect(sessions.map((s) => s.model).sort()).toEqual(['gemini-3-pro', 'gemini-3-pro-image-preview'])
    for (const session of sessions) {
      expect(session.usage.inputTokens).toBeGreaterThan(0)
      expect(session.usage.costUsd).toBeNull()
      expect(session.costPricedOn).toBeNull()
    }
    const usage = await call('usage.workspace', { workspaceId: opened.id })
    const tokens = sessions.reduce((sum, s) => sum + s.usage.inputTokens + s.usage.outputTokens + s.usage.cacheReadTokens + s.usage.cacheWriteTokens, 0)
    expect(usage.total).toMatchObject({ costUsd: null, unpricedTokens: tokens })
  })
})

describe('a cost the source recorded', () => {
  it('is kept for Aider\'s real history: "Cost: $0.02 session" stays $0.02, not from prices', async () => {
    const workspace = tempDir()
    const { copyFileSync } = await import('node:fs')
    copyFileSync(join(FIXTURES, 'aider/official/chat-history.md'), join(workspace, '.aider.chat.history.md'))
    const call = contractCaller(runtime({}))
    const opened = await call('workspaces.open', { path: workspace })
    await call('imports.run', { workspaceId: opened.id, sources: ['aider'] })
    const sessions = (await call('sessions.list', { workspaceId: opened.id, source: 'aider', limit: 200 })).items
    const spinner = sessions.find((s) => s.title === 'Use the Spinner instead of the inlined custom spinner')
    expect(spinner?.usage.costUsd).toBe(0.02)
    expect(spinner?.costPricedOn).toBeNull()
  })

  it('wins over the table for its message; the others are priced beside it', async () => {
    const rt = runtime({})
    const call = contractCaller(rt)
    const workspaceId = rt.store.workspaces.open(tempDir(), 'ws')
    const writer = rt.recorder.startSession({ workspaceId, source: 'cline', title: 'recorded' })
    writer.append({ role: 'user', content: 'go', createdAt: 1_000 })
    // 1M output tokens of Sonnet 4.5 are $15 at the table's prices; the source said $2.
    writer.append({ role: 'assistant', content: 'a', model: 'claude-sonnet-4-5', usage: { outputTokens: 1_000_000, costUsd: 2 }, createdAt: 2_000 })
    const onlyRecorded = await call('sessions.get', { sessionId: writer.id })
    expect(onlyRecorded.usage.costUsd).toBe(2)
    expect(onlyRecorded.costPricedOn).toBeNull()
    // A message without a cost of its own: 1M input tokens, $3.
    writer.append({ role: 'assistant', content: 'b', model: 'claude-sonnet-4-5', usage: { inputTokens: 1_000_000 }, createdAt: 3_000 })
    const both = await call('sessions.get', { sessionId: writer.id })
    expect(both.usage.costUsd).toBeCloseTo(5, 9)
    expect(both.costPricedOn).toBe(PRICES_DATE)
    // An unknown model adds tokens, never a cost.
    writer.append({ role: 'assistant', content: 'c', model: 'some-local-model', usage: { inputTokens: 1_000_000 }, createdAt: 4_000 })
    expect((await call('sessions.get', { sessionId: writer.id })).usage.costUsd).toBeCloseTo(5, 9)
  })
})
