#!/usr/bin/env node
// Refresh Retrace's price table from a downloaded copy of LiteLLM's published prices:
//
//   curl -LO https://raw.githubusercontent.com/BerriAI/litellm/<commit>/model_prices_and_context_window.json
//   node scripts/update-prices.mjs model_prices_and_context_window.json <commit> <YYYY-MM-DD> [out.json]
//
// It writes src/main/pricing/model-prices.json unless given another file (as its test does).
// Keeps the chat models of the providers whose agents Retrace imports (first-party names only:
// no `bedrock/…` or `azure/…` routes), and of each only the four prices per token Retrace uses.
// A provider's own route is its first-party name: LiteLLM names xAI's and Mistral's models only as
// `xai/grok-4`, `mistral/…`; they are kept as `grok-4`. Where LiteLLM also has the bare name (Vertex's
// `gemini-2.5-pro` beside Google AI Studio's `gemini/gemini-2.5-pro`), the bare entry is kept.
// Then update src/main/pricing/PROVENANCE.txt with the same commit and date.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const PROVIDERS = new Set(['anthropic', 'openai', 'gemini', 'vertex_ai-language-models', 'xai', 'deepseek', 'mistral'])
const MODES = new Set(['chat', 'responses'])
const FIELDS = ['input_cost_per_token', 'output_cost_per_token', 'cache_read_input_token_cost', 'cache_creation_input_token_cost']

const [input, commit, date, outArg] = process.argv.slice(2)
if (!input || !/^[0-9a-f]{7,40}$/.test(commit ?? '') || !/^\d{4}-\d{2}-\d{2}$/.test(date ?? '')) {
  console.error('usage: node scripts/update-prices.mjs <model_prices_and_context_window.json> <commit> <YYYY-MM-DD> [out.json]')
  process.exit(2)
}

/** The name Retrace keeps an entry under, or undefined for a third party's route. */
function firstPartyName(name, provider) {
  if (!name.includes('/')) return name
  const rest = name.startsWith(`${provider}/`) ? name.slice(provider.length + 1) : ''
  return rest && !rest.includes('/') ? rest : undefined
}

const upstream = JSON.parse(readFileSync(input, 'utf8'))
const bare = {}
const routed = {}
for (const name of Object.keys(upstream).sort()) {
  const entry = upstream[name]
  if (name === 'sample_spec' || !PROVIDERS.has(entry.litellm_provider) || !MODES.has(entry.mode)) continue
  if (typeof entry.input_cost_per_token !== 'number' || typeof entry.output_cost_per_token !== 'number') continue
  const keptAs = firstPartyName(name, entry.litellm_provider)
  if (!keptAs) continue
  const kept = {}
  for (const field of FIELDS) if (typeof entry[field] === 'number') kept[field] = entry[field]
  if (keptAs === name) bare[name] = kept
  else routed[keptAs] = kept
}
const merged = { ...routed, ...bare }
const models = Object.fromEntries(Object.keys(merged).sort().map((name) => [name, merged[name]]))

const out = outArg ?? fileURLToPath(new URL('../src/main/pricing/model-prices.json', import.meta.url))
const table = { source: 'https://github.com/BerriAI/litellm/blob/main/model_prices_and_context_window.json', commit, date, models }
writeFileSync(out, `${JSON.stringify(table, null, 1)}\n`)
console.log(`${Object.keys(models).length} models written to ${out}`)
