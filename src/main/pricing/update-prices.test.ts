import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const SCRIPT = fileURLToPath(new URL('../../../scripts/update-prices.mjs', import.meta.url))
const COMMIT = '00035b69f416be24e2e323c13198d9b7d2d1bdf9'

// Entries as LiteLLM's model_prices_and_context_window.json writes them at COMMIT (fields the
// script ignores left out), one of each kind the script has to tell apart.
const UPSTREAM = {
  sample_spec: { litellm_provider: 'one of https://docs.litellm.ai/docs/providers', mode: 'one of: chat, embedding' },
  'claude-haiku-4-5': {
    cache_creation_input_token_cost: 1.25e-6,
    cache_creation_input_token_cost_above_1hr: 2e-6,
    cache_read_input_token_cost: 1e-7,
    input_cost_per_token: 1e-6,
    litellm_provider: 'anthropic',
    mode: 'chat',
    output_cost_per_token: 5e-6
  },
  'gpt-5.2-pro': { input_cost_per_token: 2.1e-5, litellm_provider: 'openai', mode: 'responses', output_cost_per_token: 0.000168 },
  // xAI's models exist only under their own route.
  'xai/grok-code-fast-1': { cache_read_input_token_cost: 2e-8, input_cost_per_token: 2e-7, litellm_provider: 'xai', mode: 'chat', output_cost_per_token: 1.5e-6 },
  // Both spellings of one model with different prices: the bare entry wins.
  'gemini-flash-latest': { cache_read_input_token_cost: 3e-8, input_cost_per_token: 3e-7, litellm_provider: 'gemini', mode: 'chat', output_cost_per_token: 2.5e-6 },
  'gemini/gemini-flash-latest': { cache_read_input_token_cost: 7.5e-8, input_cost_per_token: 3e-7, litellm_provider: 'gemini', mode: 'chat', output_cost_per_token: 2.5e-6 },
  // Left out: another provider's route, a route of two levels, a provider Retrace does not read,
  // an image model, an embedding model, an entry without token prices.
  'bedrock/us.anthropic.claude-3-5-haiku-20241022-v1:0': { input_cost_per_token: 8e-7, litellm_provider: 'bedrock', mode: 'chat', output_cost_per_token: 4e-6 },
  'deepinfra/openai/gpt-oss-120b': { input_cost_per_token: 5e-8, litellm_provider: 'deepinfra', mode: 'chat', output_cost_per_token: 4.5e-7 },
  'command-r': { input_cost_per_token: 1.5e-7, litellm_provider: 'cohere_chat', mode: 'chat', output_cost_per_token: 6e-7 },
  'gemini-3-pro-image-preview': { input_cost_per_token: 2e-6, litellm_provider: 'vertex_ai-language-models', mode: 'image_generation', output_cost_per_token: 1.2e-5 },
  'mistral/mistral-embed': { input_cost_per_token: 1e-7, litellm_provider: 'mistral', mode: 'embedding' },
  'openai/container': { code_interpreter_cost_per_session: 0.03, litellm_provider: 'openai', mode: 'chat' }
}

describe('scripts/update-prices.mjs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'retrace-prices-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  interface Table {
    commit: string
    date: string
    models: Record<string, Record<string, number>>
  }

  function run(): { status: number | null; table: Table } {
    const input = join(dir, 'upstream.json')
    const out = join(dir, 'model-prices.json')
    writeFileSync(input, JSON.stringify(UPSTREAM, null, 4))
    const { status, stderr } = spawnSync(process.execPath, [SCRIPT, input, COMMIT, '2026-11-25', out], { encoding: 'utf8' })
    expect(stderr).toBe('')
    return { status, table: JSON.parse(readFileSync(out, 'utf8')) as Table }
  }

  it('keeps first-party chat models under their own names, with the four prices only', () => {
    const { status, table } = run()
    expect(status).toBe(0)
    expect(table.commit).toBe(COMMIT)
    expect(table.date).toBe('2026-11-25')
    expect(Object.keys(table.models)).toEqual(['claude-haiku-4-5', 'gemini-flash-latest', 'gpt-5.2-pro', 'grok-code-fast-1'])
    expect(table.models['claude-haiku-4-5']).toEqual({
      input_cost_per_token: 1e-6,
      output_cost_per_token: 5e-6,
      cache_read_input_token_cost: 1e-7,
      cache_creation_input_token_cost: 1.25e-6
    })
    expect(table.models['grok-code-fast-1']).toEqual({ input_cost_per_token: 2e-7, output_cost_per_token: 1.5e-6, cache_read_input_token_cost: 2e-8 })
    expect(table.models['gemini-flash-latest']?.cache_read_input_token_cost).toBe(3e-8)
  })

  it('writes the layout the shipped table has (indent 1, sorted names)', () => {
    run()
    const text = readFileSync(join(dir, 'model-prices.json'), 'utf8')
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 1)}\n`)
    const shipped = readFileSync(fileURLToPath(new URL('./model-prices.json', import.meta.url)), 'utf8')
    const names = Object.keys((JSON.parse(shipped) as { models: object }).models)
    expect(names).toEqual([...names].sort())
    expect(shipped).toBe(`${JSON.stringify(JSON.parse(shipped), null, 1)}\n`)
  })

  it('refuses a call without commit and date', () => {
    const { status, stderr } = spawnSync(process.execPath, [SCRIPT, join(dir, 'upstream.json')], { encoding: 'utf8' })
    expect(status).toBe(2)
    expect(stderr).toContain('usage:')
  })
})
