import Database from 'better-sqlite3'
import { join } from 'node:path'
import { toFtsQuery } from '../../src/main/store/fts-query'
import { formatCount, formatTiming, repeatAsync, repeatSync } from '../lib/stats'
import type { ResultRow } from '../lib/table'
import type { ScaleContext } from './context'
import { openRunning } from './in-process'

const TARGET_MS = 100
const REPEAT = { n: 20, warmup: 2, budgetMs: 30_000 }

/**
 * Words of the corpus's messages by how many hold them (chosen from the store's FTS vocabulary
 * at 5,000 sessions, in 53k, 31k, 5k, 235 and 31 of 519k messages; the shares are the same at 50,000, the corpus being copies of the samples).
 */
export const SEARCH_TERMS: { label: string; query: string }[] = [
  { label: 'most common', query: 'the' },
  { label: 'common', query: 'file' },
  { label: 'frequent', query: 'error' },
  { label: 'uncommon', query: 'migration' },
  { label: 'rare', query: 'typesense' },
  { label: 'two words', query: 'test failed' }
]

/**
 * `search.messages` (the best 20, with snippets, across every workspace) for rare and common
 * words, p95 of 20 in a running Retrace. Reference: the bare FTS5 MATCH counting every hit on a
 * connection of its own (the index lookup alone).
 */
export async function measureSearch(ctx: ScaleContext): Promise<ResultRow[]> {
  const running = await openRunning(ctx)
  const db = new Database(join(ctx.dataDir, 'retrace.db'), { readonly: true })
  try {
    const countSql = db.prepare('SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH ?')
    const rows: ResultRow[] = []
    for (const term of SEARCH_TERMS) {
      const input = { query: term.query, limit: 20 }
      const match = toFtsQuery(term.query)
      const hits = (countSql.get(match) as { n: number }).n
      const timing = await repeatAsync(() => running.call('search.messages', input), REPEAT)
      const count = repeatSync(() => countSql.get(match), REPEAT)
      rows.push({
        measure: `search.messages, ${term.label} "${term.query}" (${formatCount(hits)} hits)`,
        retrace: formatTiming(timing),
        reference: `${formatTiming(count)} (bare FTS5 MATCH counting hits)`,
        target: `p95 ≤ ${TARGET_MS} ms`,
        met: timing.p95 <= TARGET_MS * 1.1,
        n: String(timing.n)
      })
    }
    return rows
  } finally {
    db.close()
    running.close()
  }
}
