import Database from 'better-sqlite3'
import { join } from 'node:path'
import { formatCount, formatTiming, repeatAsync, repeatSync } from '../lib/stats'
import type { ResultRow } from '../lib/table'
import type { ScaleContext } from './context'
import { openRunning, type Running } from './in-process'

const TARGET_MS = 50
const REPEAT = { n: 20, warmup: 2, budgetMs: 20_000 }

interface Listing {
  path: string
  workspaceId: number | null
  sessionCount: number
}

/** The store's id of the corpus's 1,000-session workspace (its first, project-000). */
async function bigWorkspace(ctx: ScaleContext, running: Running): Promise<Listing> {
  const folder = ctx.corpus.workspaceSessions.find((item) => item.folder.endsWith('project-000'))?.folder
  const { items } = await running.call<{ items: Listing[] }>('workspaces.listAll', {})
  const found = items.find((item) => item.path === folder)
  if (found?.workspaceId == null) throw new Error(`workspace ${folder} is not in the store`)
  return found
}

/**
 * `sessions.list` (the window's first page of 100, and every page as `retrace sessions` reads
 * them) and `sessions.tree` for the 1,000-session workspace, in a running Retrace. Reference:
 * a bare SELECT of the same workspace's session rows on a connection of its own.
 */
export async function measureSessions(ctx: ScaleContext): Promise<ResultRow[]> {
  const running = await openRunning(ctx)
  const db = new Database(join(ctx.dataDir, 'retrace.db'), { readonly: true })
  try {
    const workspace = await bigWorkspace(ctx, running)
    const workspaceId = workspace.workspaceId
    const bare = db.prepare('SELECT * FROM sessions WHERE workspace_id = ? ORDER BY updated_at DESC')
    const reference = repeatSync(() => bare.all(workspaceId), REPEAT)
    const firstPage = await repeatAsync(() => running.call('sessions.list', { workspaceId, limit: 100 }), REPEAT)
    const everyPage = await repeatAsync(async () => {
      let cursor: string | null = null
      do cursor = (await running.call<{ nextCursor: string | null }>('sessions.list', { workspaceId, limit: 500, cursor })).nextCursor
      while (cursor)
    }, REPEAT)
    const tree = await repeatAsync(() => running.call('sessions.tree', { workspaceId }), REPEAT)
    const size = `${formatCount(workspace.sessionCount)}-session workspace`
    const row = (measure: string, timing: typeof tree): ResultRow => ({
      measure: `${measure}, ${size}`,
      retrace: formatTiming(timing),
      reference: `${formatTiming(reference)} (bare SELECT of its ${formatCount(bare.all(workspaceId).length)} session rows)`,
      target: `≤ ${TARGET_MS} ms`,
      met: timing.median <= TARGET_MS * 1.1,
      n: String(timing.n)
    })
    return [row('sessions.list, first page of 100', firstPage), row('sessions.list, every page (500 a page)', everyPage), row('sessions.tree', tree)]
  } finally {
    db.close()
    running.close()
  }
}
