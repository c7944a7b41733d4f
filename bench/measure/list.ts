import { toFtsQuery } from '../../src/main/store/fts-query'
import { sessionListSql } from '../../src/main/store/repositories/sessions'
import { formatTiming, repeatAsync, repeatSync } from '../lib/stats'
import type { ResultRow } from '../lib/table'
import { call, type MeasureContext } from './context'

const TARGET_MS = 20
const LIMIT = 100

/**
 * Measure 2: the first page of sessions through `sessions.list`, against the bare SQL of the
 * same page. Text-filtered lists are measured against the repository's own SQL run bare, which
 * shows whether their time goes to SQLite or to the layers above it.
 */
export async function measureList(ctx: MeasureContext, filters: { label: string; query: string }[]): Promise<ResultRow[]> {
  const input = { workspaceId: ctx.workspaceId, limit: LIMIT }
  const page = await call<{ items: unknown[] }>(ctx, 'sessions.list', input)
  const { n } = ctx.db.prepare('SELECT count(*) AS n FROM sessions WHERE workspace_id = ?').get(ctx.workspaceId) as { n: number }
  if (page.items.length !== Math.min(LIMIT, n)) throw new Error(`sessions.list returned ${page.items.length} items of ${n}`)
  const bareSql = ctx.db.prepare('SELECT * FROM sessions WHERE workspace_id = ? ORDER BY updated_at DESC, id DESC LIMIT 100')
  const retrace = await repeatAsync(() => call(ctx, 'sessions.list', input), ctx.repeat)
  const reference = repeatSync(() => bareSql.all(ctx.workspaceId), ctx.repeat)
  const rows: ResultRow[] = [
    {
      measure: `2. sessions.list, first page (limit ${LIMIT})`,
      retrace: formatTiming(retrace),
      reference: `${formatTiming(reference)} (bare SELECT … ORDER BY updated_at DESC LIMIT 100)`,
      target: `≤ ${TARGET_MS} ms`,
      met: retrace.median <= TARGET_MS,
      n: String(retrace.n)
    }
  ]
  for (const filter of filters) rows.push(await measureFiltered(ctx, filter))
  return rows
}

async function measureFiltered(ctx: MeasureContext, filter: { label: string; query: string }): Promise<ResultRow> {
  const input = { workspaceId: ctx.workspaceId, limit: LIMIT, query: filter.query }
  const page = await call<{ items: unknown[] }>(ctx, 'sessions.list', input)
  const like = `%${filter.query}%`
  // The very statement SessionRepository.list prepares for a text query.
  const sameSql = ctx.db.prepare(sessionListSql({ bySource: false, paged: false, byText: true }))
  const params = { workspaceId: ctx.workspaceId, subfolders: 1, like, match: toFtsQuery(filter.query), limit: LIMIT + 1 }
  // Slow cases get a time budget instead of the full N, so one bad query cannot stall the run.
  const options = { ...ctx.repeat, budgetMs: 10_000 }
  const retrace = await repeatAsync(() => call(ctx, 'sessions.list', input), options)
  const reference = repeatSync(() => sameSql.all(params), options)
  return {
    measure: `2b. sessions.list filtered by ${filter.label} "${filter.query}" (${page.items.length} on the page)`,
    retrace: formatTiming(retrace),
    reference: `${formatTiming(reference)} (the same SQL, bare)`,
    target: `≤ ${TARGET_MS} ms (list target)`,
    met: retrace.median <= TARGET_MS,
    n: retrace.n === reference.n ? String(retrace.n) : `${retrace.n}/${reference.n}`
  }
}
