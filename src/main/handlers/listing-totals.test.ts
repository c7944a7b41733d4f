import { appendFileSync, rmSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { databaseOf } from '../store/raw-database'
import type { Store } from '../store/store'
import { copiedHistories, RECORDED, SPOTTER_SESSION, spotterFile } from '../sources/testing/copied-histories'
import { contractCaller, importTestbed } from '../sources/testing/import-testbed'

const { tempDir, runtime } = importTestbed('retrace-listing-totals-')

/** What the first screen's figures are by definition: every session and every recorded file grouped again. */
function recount(store: Store) {
  const db = databaseOf(store)
  const sources = db
    .prepare('SELECT workspace_id AS id, source, count(*) AS count FROM sessions WHERE warmup = 0 GROUP BY workspace_id, source ORDER BY workspace_id, count DESC, source')
    .all() as { id: number; source: string; count: number }[]
  const workspaces = db
    .prepare(
      `SELECT w.id, count(s.id) FILTER (WHERE s.warmup = 0) AS sessionCount, max(s.updated_at) AS lastActivityAt,
         sum(coalesce(s.cost_usd, s.priced_cost_usd)) AS costUsd
       FROM workspaces w LEFT JOIN sessions s ON s.workspace_id = w.id GROUP BY w.id ORDER BY w.id`
    )
    .all() as { id: number }[]
  const groups = db
    .prepare(
      `SELECT r.cwd, r.source, count(*) AS files, max(r.last_activity_at) AS lastActivityAt,
         sum(NOT EXISTS (SELECT 1 FROM import_files f WHERE f.source = r.source AND f.path = r.path)) AS notImported
       FROM recorded_files r GROUP BY r.cwd, r.source ORDER BY r.cwd, r.source`
    )
    .all()
  return {
    workspaces: workspaces.map((row) => ({ ...row, sources: sources.filter((entry) => entry.id === row.id).map(({ source, count }) => ({ source, count })) })),
    groups
  }
}

// SQLite's order (bytes), as the recount's ORDER BY.
const byGroup = (a: { cwd: string; source: string }, b: { cwd: string; source: string }) => (`${a.cwd}\0${a.source}` < `${b.cwd}\0${b.source}` ? -1 : 1)

/** The store's kept figures equal the recount, and after a listing nothing is left to recount. */
function expectKeptAsRecounted(store: Store): void {
  const kept = {
    workspaces: store.workspaceListing.listed().map(({ id, sessionCount, lastActivityAt, costUsd, sources }) => ({ id, sessionCount, lastActivityAt, costUsd, sources })),
    groups: store.recordedFiles.groups().sort(byGroup)
  }
  expect(kept).toEqual(recount(store))
  const db = databaseOf(store)
  expect(db.prepare('SELECT count(*) AS n FROM workspaces w WHERE NOT EXISTS (SELECT 1 FROM workspace_totals t WHERE t.workspace_id = w.id)').get()).toEqual({ n: 0 })
  expect(db.prepare('SELECT count(*) AS n FROM recorded_totals_stale').get()).toEqual({ n: 0 })
}

describe("the first screen's kept totals (R74)", () => {
  it('stay equal to a recount through imports, a new history line, hiding, re-pricing, warm-ups, deletes and forgetting', async () => {
    const roots = copiedHistories(tempDir())
    const rt = runtime(roots, { env: { RETRACE_RECORDED_FRESH_MS: '1' } })
    const call = contractCaller(rt)
    const { store } = rt
    const listAll = () => call('workspaces.listAll', { refresh: 'wait' })
    await listAll() // the index filled, nothing imported: every file counted as not imported
    expectKeptAsRecounted(store)
    expect(store.recordedFiles.groups().some((group) => group.notImported > 0)).toBe(true)

    await rt.imports.importAll()
    await listAll()
    expectKeptAsRecounted(store)
    const spotter = store.workspaces.getByPath(RECORDED.spotter)
    expect(spotter).toBeDefined()
    const spotterId = spotter?.id ?? 0
    expect(store.workspaceListing.listed().find((workspace) => workspace.id === spotterId)?.sessionCount).toBeGreaterThan(0)

    // A line written since: the index's activity moves, and the import's session with it.
    const file = spotterFile(roots.claude, `${SPOTTER_SESSION}.jsonl`)
    appendFileSync(file, `${JSON.stringify({ type: 'system', cwd: RECORDED.spotter, sessionId: SPOTTER_SESSION, timestamp: '2030-01-02T03:04:05.000Z' })}\n`)
    await listAll()
    expectKeptAsRecounted(store)
    await rt.imports.importAll()
    expectKeptAsRecounted(store)

    await call('workspaces.setHidden', { path: RECORDED.spotter, hidden: true })
    expectKeptAsRecounted(store)

    // A price table changed: the sessions priced again.
    const db = databaseOf(store)
    db.prepare("UPDATE sessions SET priced_with = 'an older table', priced_cost_usd = priced_cost_usd * 2 + 1").run()
    expectKeptAsRecounted(store)
    store.transaction(() => store.pricing.repriceStale())
    expectKeptAsRecounted(store)

    const [first, second] = (db.prepare('SELECT id FROM sessions WHERE workspace_id = ? ORDER BY id').all(spotterId) as { id: number }[]).map((row) => row.id)
    db.prepare('UPDATE sessions SET warmup = 1 WHERE id = ?').run(first)
    expectKeptAsRecounted(store)
    store.sessions.delete(second ?? 0)
    expectKeptAsRecounted(store)

    await call('workspaces.forget', { workspaceId: spotterId, sessions: store.workspaceListing.sessionsOf(spotterId).all })
    expectKeptAsRecounted(store)
    rmSync(file)
    await listAll()
    expectKeptAsRecounted(store)
  })
})
