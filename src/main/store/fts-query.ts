/**
 * Below this length the last word is matched whole, not as a prefix: a one- or two-letter
 * prefix expands to thousands of index terms and costs up to seconds on a large store (figures
 * in bench/README.md, the store).
 */
export const MIN_PREFIX_LENGTH = 3

/**
 * The index's terms a prefix stands for, or null to leave the prefix to FTS5 (too many terms,
 * or a word the caller cannot look up). Given the word as the tokenizer stores it (lower case).
 */
export type PrefixTerms = (prefix: string) => readonly string[] | null

/** Words whose tokens are the word itself, lower-cased (unicode61 on ASCII letters and digits). */
const PLAIN_WORD = /^[A-Za-z0-9]+$/

/**
 * Turn what a person typed into a safe FTS5 query: every word becomes a quoted phrase
 * (so `"`, `*`, `AND`, `NEAR(` and friends are just text), words are ANDed, and the last word
 * matches as a prefix so results appear while typing. Returns null when nothing is searchable.
 *
 * With `prefixTerms`, the prefix becomes the OR of the index terms it stands for: the same
 * rows match, but FTS5 reads an OR of whole terms lazily (newest first, stopping at the limit)
 * where it merges the whole doclist of every term of a prefix before returning the first row.
 */
export function toFtsQuery(text: string, prefixTerms?: PrefixTerms): string | null {
  const words = text.match(/[\p{L}\p{N}_]+/gu)
  if (!words || words.length === 0) return null
  const last = words.pop() ?? ''
  const whole = words.map(quote)
  if ([...last].length < MIN_PREFIX_LENGTH) return [...whole, quote(last)].join(' ')
  const terms = prefixTerms && PLAIN_WORD.test(last) ? prefixTerms(last.toLowerCase()) : null
  if (terms === null || terms.length === 0) return [...whole, `${quote(last)}*`].join(' ')
  if (terms.length === 1) return [...whole, quote(terms[0] ?? last)].join(' ')
  // FTS5 ANDs phrases side by side, but a group only with an explicit AND.
  return [...whole, `(${terms.map(quote).join(' OR ')})`].join(' AND ')
}

function quote(word: string): string {
  return `"${word.replaceAll('"', '""')}"`
}
