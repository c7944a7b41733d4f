import { toFtsQuery } from '../../src/main/store/fts-query'
import { formatCount, formatTiming, repeatAsync, repeatSync } from '../lib/stats'
import type { ResultRow } from '../lib/table'
import { call, type MeasureContext } from './context'

const TARGET_MS = 100
const LIMIT = 20

export interface SearchTerm {
  label: string
  query: string
  /** Also time a LIKE '%…%' scan of messages.content (seconds on 1M rows, so only for one term). */
  likeScan?: boolean
}

/**
 * Measure 4: `search.messages` (best 20 by rank, with snippets) for terms of different
 * frequency. Reference: the bare FTS5 MATCH counting every hit (the index lookup alone), and
 * for one term a LIKE scan of the same table (what search would cost without the index).
 */
export async function measureSearch(ctx: MeasureContext, terms: SearchTerm[]): Promise<ResultRow[]> {
  const countSql = ctx.db.prepare('SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH ?')
  const likeSql = ctx.db.prepare("SELECT count(*) AS n FROM messages WHERE content LIKE ? ESCAPE '\\'")
  const rows: ResultRow[] = []
  for (const term of terms) {
    const input = { query: term.query, limit: LIMIT }
    const match = toFtsQuery(term.query)
    const hits = (countSql.get(match) as { n: number }).n
    const page = await call<{ items: unknown[] }>(ctx, 'search.messages', input)
    const options = { ...ctx.repeat, budgetMs: 10_000 }
    const retrace = await repeatAsync(() => call(ctx, 'search.messages', input), options)
    const count = repeatSync(() => countSql.get(match), options)
    let reference = `${formatTiming(count)} (bare FTS5 MATCH ${match} counting hits: ${formatCount(hits)})`
    if (term.likeScan) {
      const like = repeatSync(() => likeSql.get(`%${term.query}%`), { n: 3, warmup: 1 })
      reference += `; ${formatTiming(like)} (LIKE '%${term.query}%' scan of messages.content, N=3)`
    }
    rows.push({
      measure: `4. search.messages, ${term.label} "${term.query}" (limit ${LIMIT}, ${page.items.length} returned)`,
      retrace: formatTiming(retrace),
      reference,
      target: `≤ ${TARGET_MS} ms`,
      met: retrace.median <= TARGET_MS,
      n: retrace.n === count.n ? String(retrace.n) : `${retrace.n}/${count.n}`
    })
  }
  return rows
}
