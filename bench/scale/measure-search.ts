import Database from 'better-sqlite3'
import { join } from 'node:path'
import { toFtsQuery } from '../../src/main/store/fts-query'
import { formatCount, formatTiming, repeatAsync, repeatSync } from '../lib/stats'
import type { ResultRow } from '../lib/table'
import type { ScaleContext } from './context'
import { openRunning, type Running } from './in-process'

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
    rows.push(...(await measureScoped(running, db)))
    return rows
  } finally {
    db.close()
    running.close()
  }
}

/**
 * The most common word in the workspace of most sessions and in the one of fewest: the filter
 * acts before the newest-1,000 cut, so a small workspace walks further back through the hits.
 * Reference: the bare MATCH counting the workspace's hits (its sessions' messages).
 */
async function measureScoped(running: Running, db: Database.Database): Promise<ResultRow[]> {
  const bySize = db.prepare('SELECT workspace_id AS id, count(*) AS n FROM sessions GROUP BY workspace_id ORDER BY n DESC, id').all() as { id: number; n: number }[]
  const largest = bySize[0]
  const smallest = bySize.at(-1)
  if (!largest || !smallest) return []
  const countSql = db.prepare(`SELECT count(*) AS n FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
    JOIN sessions s ON s.id = m.session_id WHERE messages_fts MATCH ? AND s.workspace_id = ?`)
  const rows: ResultRow[] = []
  for (const [label, workspace] of [['largest', largest], ['smallest', smallest]] as const) {
    const term = SEARCH_TERMS[0] ?? { label: 'most common', query: 'the' }
    const match = toFtsQuery(term.query)
    const input = { query: term.query, workspaceId: workspace.id, limit: 20 }
    const hits = (countSql.get(match, workspace.id) as { n: number }).n
    const timing = await repeatAsync(() => running.call('search.messages', input), REPEAT)
    const count = repeatSync(() => countSql.get(match, workspace.id), REPEAT)
    rows.push({
      measure: `search.messages, "${term.query}" in the ${label} workspace (${formatCount(workspace.n)} sessions, ${formatCount(hits)} hits)`,
      retrace: formatTiming(timing),
      reference: `${formatTiming(count)} (bare FTS5 MATCH counting its hits)`,
      target: `p95 ≤ ${TARGET_MS} ms`,
      met: timing.p95 <= TARGET_MS * 1.1,
      n: String(timing.n)
    })
  }
  return rows
}
