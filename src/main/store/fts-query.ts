/**
 * Turn what a person typed into a safe FTS5 query: every word becomes a quoted phrase
 * (so `"`, `*`, `AND`, `NEAR(` and friends are just text), words are ANDed, and the last word
 * matches as a prefix so results appear while typing. Returns null when nothing is searchable.
 */
export function toFtsQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}_]+/gu)
  if (!words || words.length === 0) return null
  return words.map((word, index) => `"${word}"${index === words.length - 1 ? '*' : ''}`).join(' ')
}
