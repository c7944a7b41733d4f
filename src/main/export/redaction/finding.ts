import { createHash } from 'node:crypto'
import { maskContext, runEnd, runStart } from './context-mask'
import type { RawMatch } from './raw-match'
import type { SecretFinding, TextPlace } from './types'

/** Characters of context either side of a secret in its excerpt. */
const EXCERPT_CONTEXT = 40

/**
 * A finding for the review list. `others` are all merged matches of the same text (this one
 * included), so a neighbouring secret inside the excerpt is masked too, never shown; the rest
 * of the excerpt shows only punctuation and names (context-mask.ts), so a neighbour no rule
 * found is not shown either.
 */
export function toFinding(place: TextPlace, text: string, match: RawMatch, others: readonly RawMatch[]): SecretFinding {
  return {
    id: findingId(place.id, match),
    ruleId: match.ruleId,
    ruleName: match.ruleName,
    placeId: place.id,
    placeLabel: place.label,
    start: match.start,
    end: match.end,
    masked: maskSecret(text.slice(match.start, match.end)),
    excerpt: excerpt(text, match, others)
  }
}

/** Stable for the same secret in the same place, so a review's choices survive a rescan. */
export function findingId(placeId: string, match: Pick<RawMatch, 'start' | 'end' | 'ruleId'>): string {
  return createHash('sha256').update(`${placeId}\u0000${match.start}\u0000${match.end}\u0000${match.ruleId}`).digest('hex').slice(0, 24)
}

/**
 * Enough of a secret to recognise it ("AKIA…(13 more)…XYZ"), never all of it: at most a
 * quarter shows as a prefix (4 characters at most) and a sixth as a suffix (3 at most), so a
 * short password shows a character or two and a 3-character one shows none.
 */
export function maskSecret(secret: string): string {
  const head = Math.min(4, Math.floor(secret.length / 4))
  const tail = Math.min(3, Math.floor(secret.length / 6))
  const hidden = secret.length - head - tail
  return printable(`${secret.slice(0, head)}…(${hidden} more)…${secret.slice(secret.length - tail)}`)
}

function excerpt(text: string, match: RawMatch, others: readonly RawMatch[]): string {
  let from = Math.max(0, match.start - EXCERPT_CONTEXT)
  let to = Math.min(text.length, match.end + EXCERPT_CONTEXT)
  // A neighbouring secret cut by the window's edge is taken whole, so it is masked, not half shown.
  const inWindow = others.filter((other) => other.start < to && other.end > from).sort((a, b) => a.start - b.start)
  for (const other of inWindow) {
    from = Math.min(from, other.start)
    to = Math.max(to, other.end)
  }
  // So is a run of characters the edge cuts: judged whole, a value's last letters cannot pass as a word.
  from = runStart(text, from)
  to = runEnd(text, to)
  let out = from > 0 ? '…' : ''
  let at = from
  for (const other of inWindow) {
    out += maskContext(text.slice(at, other.start)) + maskSecret(text.slice(other.start, other.end))
    at = other.end
  }
  out += maskContext(text.slice(at, to))
  return to < text.length ? `${out}…` : out
}

/**
 * One line of printable text: newlines as ⏎, and control and direction-changing characters
 * (a binary file's bytes, a terminal escape) as `·`, so a review printed in a terminal shows
 * what it says and nothing else.
 */
function printable(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/\r\n|\r|\n/g, '⏎').replace(/[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '·')
}
