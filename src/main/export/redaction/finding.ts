import { createHash } from 'node:crypto'
import type { RawMatch } from './raw-match'
import type { SecretFinding, TextPlace } from './types'

/** Characters of context either side of a secret in its excerpt. */
const EXCERPT_CONTEXT = 40

/**
 * A finding for the review list. `others` are all merged matches of the same text (this one
 * included), so a neighbouring secret inside the excerpt is masked too, never shown.
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
  return oneLine(`${secret.slice(0, head)}…(${hidden} more)…${secret.slice(secret.length - tail)}`)
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
  from = avoidSplitPair(text, from)
  to = avoidSplitPair(text, to)
  let out = from > 0 ? '…' : ''
  let at = from
  for (const other of inWindow) {
    out += oneLine(text.slice(at, other.start)) + maskSecret(text.slice(other.start, other.end))
    at = other.end
  }
  out += oneLine(text.slice(at, to))
  return to < text.length ? `${out}…` : out
}

/** Moves an offset off the middle of a surrogate pair (an emoji cut in half shows as �). */
function avoidSplitPair(text: string, at: number): number {
  const code = text.charCodeAt(at)
  return at > 0 && at < text.length && code >= 0xdc00 && code <= 0xdfff ? at - 1 : at
}

function oneLine(value: string): string {
  return value.replace(/\r\n|\r|\n/g, '⏎')
}
