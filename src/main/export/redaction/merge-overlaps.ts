import type { RawMatch } from './raw-match'

/**
 * Rules that yield when their finding overlaps another's, least specific first: those that
 * match a shape rather than one provider's key format (a `password=` or `*_API_KEY=` whose value
 * is a Stripe key, a JWT after `Bearer` or in a connection string: the more specific rule names
 * the secret better), and last
 * Retrace's fallback for a key the preset's own rule also found. Every other rule (the preset's
 * provider rules) ranks above these.
 */
const YIELDING_RULES = [
  'retrace/password-assignment',
  'retrace/secret-assignment',
  'retrace/bearer-token',
  '@secretlint/secretlint-rule-basicauth',
  '@secretlint/secretlint-rule-database-connection-string',
  'retrace/jwt',
  'retrace/aws-secret-access-key'
]

function specificity(ruleId: string): number {
  const rank = YIELDING_RULES.indexOf(ruleId)
  return rank === -1 ? YIELDING_RULES.length : rank
}

/**
 * One finding per secret in one text: matches whose ranges overlap (directly or through a chain)
 * become one, named by the most specific rule (then the longest match) and covering all of
 * them, so a looser rule's wider range is never left half visible.
 */
export function mergeOverlaps(matches: readonly RawMatch[]): RawMatch[] {
  const sorted = [...matches].sort((a, b) => a.start - b.start || b.end - a.end)
  const merged: RawMatch[] = []
  let group: RawMatch[] = []
  let groupEnd = -1
  const flush = (): void => {
    if (group.length > 0) merged.push(mergeGroup(group))
    group = []
  }
  for (const match of sorted) {
    if (match.start >= groupEnd) flush()
    group.push(match)
    groupEnd = Math.max(groupEnd, match.end)
  }
  flush()
  return merged
}

function mergeGroup(group: RawMatch[]): RawMatch {
  const best = group.reduce((a, b) => {
    const bySpecificity = specificity(b.ruleId) - specificity(a.ruleId)
    if (bySpecificity !== 0) return bySpecificity > 0 ? b : a
    return b.end - b.start > a.end - a.start ? b : a
  })
  const start = Math.min(...group.map((m) => m.start))
  const end = Math.max(...group.map((m) => m.end))
  return { ruleId: best.ruleId, ruleName: best.ruleName, start, end }
}
