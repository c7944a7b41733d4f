import table from './model-prices.json'

/** Dollars per token of one model (LiteLLM's fields, see PROVENANCE.txt). */
export interface ModelPrice {
  readonly input: number
  readonly output: number
  /** Tokens read from the prompt cache; priced as input when the table has no cache price. */
  readonly cacheRead: number
  /** Tokens written to the prompt cache (5-minute writes); priced as input when the table has none. */
  readonly cacheWrite: number
}

export interface TokenCounts {
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
}

interface TableEntry {
  input_cost_per_token: number
  output_cost_per_token: number
  cache_read_input_token_cost?: number
  cache_creation_input_token_cost?: number
}

/** The date of the price table shipped with Retrace ("prices of <date>"). */
export const PRICES_DATE: string = table.date

const MODELS: Readonly<Record<string, TableEntry>> = table.models

/**
 * Claude Code's model aliases (sub-agents' `model: sonnet`), as they resolve at the table's
 * date. Every Sonnet since 3.7 and every Haiku 4.5 has one price, so these are not guesses;
 * Opus changed price at 4.5, and "opus" means the current one.
 */
const ALIASES: Readonly<Record<string, string>> = {
  sonnet: 'claude-sonnet-4-6',
  haiku: 'claude-haiku-4-5',
  opus: 'claude-opus-4-7'
}

const DATE_SUFFIX = /-(\d{8}|\d{4}-\d{2}-\d{2})$/

/**
 * The name as the table spells it: lower case; no provider route (`anthropic/`, `openai/`,
 * Bedrock's `converse/jp.anthropic.` and `-v1:0`); no context-window tag (`[1m]`); Claude's
 * dotted versions (`claude-sonnet-4.5`, as Copilot and Cursor write them) with dashes, and GPT's
 * dashed ones (`gpt-5-1-codex`, as Codex behind an OpenAI-compatible proxy writes them) with dots.
 */
export function normaliseModelName(model: string): string {
  let name = model.trim().toLowerCase()
  name = name.slice(name.lastIndexOf('/') + 1)
  name = name.replace(/^(?:[a-z]{2,4}\.)?anthropic\./, '').replace(/-v\d+(?::\d+)?$/, '').replace(/\[[^\]]*\]$/, '')
  if (name.startsWith('claude-')) name = name.replace(/(\d)\.(\d)/g, '$1-$2')
  // Only a single-digit minor followed by `-` or the end: `gpt-4-0613` and dates stay as they are.
  name = name.replace(/^gpt-(\d)-(\d)(?=-|$)/, 'gpt-$1.$2')
  return ALIASES[name] ?? name
}

/**
 * The price of a model as an agent names it: the exact name, else the name without its date
 * suffix (`claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`), else the one dated entry of that
 * name (`claude-3-7-sonnet` → `claude-3-7-sonnet-20250219`). Undefined for a model the table does
 * not know: no cost is ever guessed from a similar name.
 */
export function priceOf(model: string | null | undefined): ModelPrice | undefined {
  if (!model) return undefined
  // An import prices every message: look each name up once.
  if (looked.has(model)) return looked.get(model)
  const price = lookUp(model)
  if (looked.size < 1000) looked.set(model, price)
  return price
}

const looked = new Map<string, ModelPrice | undefined>()

function lookUp(model: string): ModelPrice | undefined {
  const name = normaliseModelName(model)
  const entry = MODELS[name] ?? MODELS[name.replace(DATE_SUFFIX, '')] ?? onlyDated(name)
  if (!entry) return undefined
  return {
    input: entry.input_cost_per_token,
    output: entry.output_cost_per_token,
    cacheRead: entry.cache_read_input_token_cost ?? entry.input_cost_per_token,
    cacheWrite: entry.cache_creation_input_token_cost ?? entry.input_cost_per_token
  }
}

function onlyDated(name: string): TableEntry | undefined {
  const dated = Object.keys(MODELS).filter((key) => key.startsWith(`${name}-`) && DATE_SUFFIX.test(key) && key.replace(DATE_SUFFIX, '') === name)
  return dated.length === 1 ? MODELS[dated[0] as string] : undefined
}

/** Dollars for these tokens at this model's prices; undefined for an unknown model. */
export function costOf(model: string | null | undefined, tokens: TokenCounts): number | undefined {
  const price = priceOf(model)
  if (!price) return undefined
  return (
    tokens.inputTokens * price.input +
    tokens.outputTokens * price.output +
    tokens.cacheReadTokens * price.cacheRead +
    tokens.cacheWriteTokens * price.cacheWrite
  )
}
