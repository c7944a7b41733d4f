import { describe, expect, it } from 'vitest'
import { costOf, normaliseModelName, priceOf, PRICES_DATE } from './prices'

const M = 1e-6

describe('the price table lookup', () => {
  // Names as the agents write them → dollars per million input / output / cache read / cache write.
  const KNOWN: [string, [number, number, number, number]][] = [
    ['claude-sonnet-4-5-20250929', [3, 15, 0.3, 3.75]], // exact
    ['claude-opus-4-1', [15, 75, 1.5, 18.75]], // exact, undated
    ['claude-opus-4-5-20251101', [5, 25, 0.5, 6.25]], // Opus 4.5 is a third of 4.1's price
    ['claude-haiku-4-5-20251001', [1, 5, 0.1, 1.25]],
    ['claude-opus-4-7-20991231', [5, 25, 0.5, 6.25]], // an unknown date: the undated entry
    ['claude-sonnet-4.5', [3, 15, 0.3, 3.75]], // Copilot's dotted name
    ['Claude-Sonnet-4-5[1m]', [3, 15, 0.3, 3.75]], // case and a context-window tag
    ['anthropic/claude-opus-4-6', [5, 25, 0.5, 6.25]], // a provider route
    ['converse/jp.anthropic.claude-haiku-4-5-20251001-v1:0', [1, 5, 0.1, 1.25]], // Bedrock's name
    ['sonnet', [3, 15, 0.3, 3.75]], // Claude Code's sub-agent aliases
    ['haiku', [1, 5, 0.1, 1.25]],
    ['gpt-5.3-codex', [1.75, 14, 0.175, 1.75]], // no cache-write price: input's
    ['gpt-5-codex', [1.25, 10, 0.125, 1.25]],
    ['gpt-5', [1.25, 10, 0.125, 1.25]],
    ['claude-3-7-sonnet', [3, 15, 0.3, 3.75]], // the one dated entry, claude-3-7-sonnet-20250219
    ['openai/gpt-5.5', [5, 30, 0.5, 5]],
    ['gpt-4o', [2.5, 10, 1.25, 2.5]],
    ['gemini-2.5-pro', [1.25, 10, 0.125, 1.25]], // Gemini CLI's name; the base tier (≤ 200k)
    ['models/gemini-3-flash-preview', [0.5, 3, 0.05, 0.5]],
    // Added from the same LiteLLM commit.
    ['gpt-5.1', [1.25, 10, 0.125, 1.25]],
    ['gpt-5.1-2025-11-13', [1.25, 10, 0.125, 1.25]],
    ['gpt-5.2-chat-latest', [1.75, 14, 0.175, 1.75]],
    ['gpt-5.2-pro', [21, 168, 21, 21]], // no cache prices in the table: input's
    ['gpt-4o-mini', [0.15, 0.6, 0.075, 0.15]],
    ['o3', [2, 8, 0.5, 2]],
    ['o4-mini-2025-04-16', [1.1, 4.4, 0.275, 1.1]],
    ['gpt-5-1-codex-2025-11-13', [1.25, 10, 0.125, 1.25]], // Codex behind a proxy: gpt-5.1-codex
    ['gemini-2.5-flash', [0.3, 2.5, 0.03, 0.3]],
    ['gemini-3-pro-preview', [2, 12, 0.2, 2]],
    ['gemini-3.1-pro-preview', [2, 12, 0.2, 2]],
    ['gemini-2.0-flash-001', [0.15, 0.6, 0.0375, 0.15]], // Vertex's entry, not the AI Studio route's $0.10
    ['grok-code-fast-1', [0.2, 1.5, 0.02, 0.2]], // LiteLLM's xai/grok-code-fast-1
    ['grok-4-latest', [3, 15, 3, 3]],
    ['xai/grok-4', [3, 15, 3, 3]],
    ['deepseek-chat', [0.28, 0.42, 0.028, 0.28]],
    ['deepseek-v4-pro', [0.435, 0.87, 0.003625, 0]], // LiteLLM's cache-write price is 0.0, not absent
    ['mistral-large-latest', [0.5, 1.5, 0.5, 0.5]]
  ]
  for (const [name, [input, output, cacheRead, cacheWrite]] of KNOWN) {
    it(`prices ${name}`, () => {
      const price = priceOf(name)
      expect(price).toBeDefined()
      expect(price!.input / M).toBeCloseTo(input, 9)
      expect(price!.output / M).toBeCloseTo(output, 9)
      expect(price!.cacheRead / M).toBeCloseTo(cacheRead, 9)
      expect(price!.cacheWrite / M).toBeCloseTo(cacheWrite, 9)
    })
  }

  // Never a guess from a similar name.
  // gemini-3-pro-image-preview: LiteLLM prices it as an image model only (output per image token).
  const UNKNOWN = ['gemini-3-pro', 'gemini-3-pro-image-preview', 'openai.codex.5_3', 'claude-3-5-sonnet-20241022', 'claude-sonnet-9', 'gpt-5.3', 'gpt-4-1106', 'llama3.2', 'opus-like', '', null, undefined]
  for (const name of UNKNOWN) {
    it(`gives no price for ${JSON.stringify(name)}`, () => {
      expect(priceOf(name)).toBeUndefined()
      expect(costOf(name, { inputTokens: 1000, outputTokens: 1000, cacheReadTokens: 0, cacheWriteTokens: 0 })).toBeUndefined()
    })
  }

  it('prices the four kinds of tokens separately', () => {
    // 1M of each on Sonnet 4.5: $3 + $15 + $0.30 + $3.75.
    expect(costOf('claude-sonnet-4-5', { inputTokens: 1e6, outputTokens: 1e6, cacheReadTokens: 1e6, cacheWriteTokens: 1e6 })).toBeCloseTo(22.05, 9)
    expect(costOf('claude-sonnet-4-5', { inputTokens: 0, outputTokens: 0, cacheReadTokens: 1e6, cacheWriteTokens: 0 })).toBeCloseTo(0.3, 9)
  })

  it('normalises without changing a name it knows', () => {
    expect(normaliseModelName('gpt-5.1-codex')).toBe('gpt-5.1-codex')
    expect(normaliseModelName('claude-opus-4.6')).toBe('claude-opus-4-6')
    expect(normaliseModelName('gpt-5-1-codex-2025-11-13')).toBe('gpt-5.1-codex-2025-11-13')
    // A dashed number that is not a minor version stays: a snapshot, a date, a size.
    expect(normaliseModelName('gpt-4-0613')).toBe('gpt-4-0613')
    expect(normaliseModelName('gpt-5-2025-08-07')).toBe('gpt-5-2025-08-07')
    expect(normaliseModelName('gpt-4-32k')).toBe('gpt-4-32k')
  })

  it('has a date', () => {
    expect(PRICES_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  })
})
