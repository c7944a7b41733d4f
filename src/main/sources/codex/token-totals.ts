import { z } from 'zod'
import type { TokenUsage } from './schemas'

/**
 * Codex's cumulative `token_count` totals. Rollouts repeat the same totals; the parser keeps the
 * last ones in its state and reports usage only when they change (by the difference, when a
 * line lacks `last_token_usage`).
 */
export const TotalsSchema = z.object({
  input: z.number(),
  cached: z.number(),
  output: z.number(),
  reasoning: z.number(),
  total: z.number()
})
export type Totals = z.infer<typeof TotalsSchema>

export function toTotals(usage: TokenUsage): Totals {
  return {
    input: usage.input_tokens,
    cached: usage.cached_input_tokens ?? 0,
    output: usage.output_tokens,
    reasoning: usage.reasoning_output_tokens ?? 0,
    total: usage.total_tokens ?? usage.input_tokens + usage.output_tokens
  }
}

export function sameTotals(a: Totals, b: Totals): boolean {
  return a.input === b.input && a.cached === b.cached && a.output === b.output && a.reasoning === b.reasoning && a.total === b.total
}

export function subtractTotals(a: Totals, b: Totals): Totals {
  return {
    input: Math.max(0, a.input - b.input),
    cached: Math.max(0, a.cached - b.cached),
    output: Math.max(0, a.output - b.output),
    reasoning: Math.max(0, a.reasoning - b.reasoning),
    total: Math.max(0, a.total - b.total)
  }
}
