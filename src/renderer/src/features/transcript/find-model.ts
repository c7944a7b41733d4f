/** A row of the transcript that contains what is being looked for (from `transcript.find`). */
export interface FindMatch {
  seq: number
  turn: number
}

/** The match to start at: the first one at or below where the reader is, else the first. -1 when there are none. */
export function firstMatchFrom(matches: readonly FindMatch[], fromSeq: number | null): number {
  if (matches.length === 0) return -1
  if (fromSeq === null) return 0
  const index = matches.findIndex((match) => match.seq >= fromSeq)
  return index < 0 ? 0 : index
}

/** The next (1) or previous (-1) match, wrapping round at either end. */
export function stepMatch(index: number, count: number, direction: 1 | -1): number {
  if (count === 0) return -1
  if (index < 0) return direction === 1 ? 0 : count - 1
  return (index + direction + count) % count
}

/**
 * Where `query` occurs in `text`, case-insensitively, as [start, end) offsets into `text`
 * (non-overlapping, left to right). Lower-casing that changes a string's length (a few
 * non-Latin letters) falls back to exact-case matching, so offsets always fit `text`.
 */
export function textMatches(text: string, query: string): [number, number][] {
  if (!query) return []
  let haystack = text.toLowerCase()
  let needle = query.toLowerCase()
  if (haystack.length !== text.length || needle.length !== query.length) {
    haystack = text
    needle = query
  }
  const found: [number, number][] = []
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) found.push([at, at + needle.length])
  return found
}

/** "3 of 17", "No matches", "3 of 1,000+" (the server returns the first thousand). */
export function matchLabel(index: number, count: number, truncated: boolean): string {
  if (count === 0) return 'No matches'
  const total = `${count.toLocaleString()}${truncated ? '+' : ''}`
  return index < 0 ? `${total} ${count === 1 && !truncated ? 'match' : 'matches'}` : `${(index + 1).toLocaleString()} of ${total}`
}
