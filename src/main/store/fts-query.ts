/**
 * Below this length the last word is matched whole, not as a prefix: a one- or two-letter
 * prefix expands to thousands of index terms and costs up to seconds on a large store (figures
 * in bench/README.md, the store).
 */
export const MIN_PREFIX_LENGTH = 3

/**
 * Turn what a person typed into a safe FTS5 query: every word becomes a quoted phrase
 * (so `"`, `*`, `AND`, `NEAR(` and friends are just text), words are ANDed, and the last word
 * matches as a prefix so results appear while typing. Returns null when nothing is searchable.
 */
export function toFtsQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}_]+/gu)
  if (!words || words.length === 0) return null
  return words
    .map((word, index) => {
      const prefix = index === words.length - 1 && [...word].length >= MIN_PREFIX_LENGTH
      return `"${word}"${prefix ? '*' : ''}`
    })
    .join(' ')
}
