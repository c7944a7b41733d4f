import type { SearchHit } from '../../../../shared/contract'

/**
 * The hits of every page loaded, each message once. Pages are cut by offset, so messages
 * imported between two pages push earlier hits into the next page: shown again, they would be
 * listed twice (and share a React key).
 */
export function uniqueHits(pages: readonly { items: readonly SearchHit[] }[]): SearchHit[] {
  const seen = new Set<number>()
  const hits: SearchHit[] = []
  for (const page of pages) {
    for (const hit of page.items) {
      if (seen.has(hit.messageId)) continue
      seen.add(hit.messageId)
      hits.push(hit)
    }
  }
  return hits
}
