import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { databaseOf } from '../raw-database'
import { openStore, type Store } from '../store'
import { sessionListSql } from './sessions'

/**
 * The session list carries each session's coverage (R45) without a query per session: three
 * counts by index ranges inside its one query. Checked on the plan SQLite chooses for a store of
 * 50,000 sessions (issue 41's size), with entries, checkpoints and journal rows to count.
 */
describe('the session list with coverage, on 50,000 sessions', () => {
  let dataDir: string
  let store: Store
  afterEach(() => {
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('counts coverage by index ranges, never by scanning a table', () => {
    dataDir = mkdtempSync(join(tmpdir(), 'retrace-coverage-plan-'))
    store = openStore(dataDir)
    const workspaceId = store.workspaces.open(join(dataDir, 'w'), 'w')
    const db = databaseOf(store)
    db.transaction(() => {
      const session = db.prepare("INSERT INTO sessions (uid, workspace_id, source, title, kind, created_at, updated_at) VALUES (?, ?, 'codex', 't', 'main', ?, ?)")
      const checkpoint = db.prepare('INSERT INTO checkpoints (session_id, turn, messages_before, uncaptured_commands, created_at) VALUES (?, 1, 0, 1, 0)')
      const entry = db.prepare("INSERT INTO not_captured_changes (session_id, turn, tool, reason) VALUES (?, 1, 'apply_patch', 'r')")
      const scope = db.prepare("INSERT INTO journal_scopes (workspace_id, session_id, turn, kind, created_at) VALUES (?, ?, 1, 'turn', 0)")
      const change = db.prepare("INSERT INTO journal_entries (scope_id, op, path, observed, created_at) VALUES (?, 'delete', x'61', 'tool', 0)")
      for (let i = 0; i < 50_000; i += 1) {
        const rowId = Number(session.run(`s${i}`, workspaceId, i, i).lastInsertRowid)
        checkpoint.run(rowId)
        if (i % 10 === 0) entry.run(rowId)
        if (i % 3 === 0) change.run(Number(scope.run(workspaceId, rowId).lastInsertRowid))
      }
    })()
    db.exec('ANALYZE')
    const sql = sessionListSql({ bySource: false, paged: false, byText: false, withoutWarmups: true })
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ workspaceId, subfolders: 1, limit: 100 }) as { detail: string }[]).map((row) => row.detail)
    const coverageSteps = plan.filter((detail) => /not_captured_changes|journal_entries|journal_scopes|checkpoints/.test(detail))
    expect(coverageSteps.length).toBeGreaterThan(0)
    for (const step of coverageSteps) expect(step, plan.join("\n")).toMatch(/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/)
    // And the figures are right where counted.
    const page = store.sessions.list({ workspaceId, limit: 3, includeWarmups: true })
    // s49998 has a journaled change (49998 is a multiple of 3), s49990 a not-captured entry.
    expect(page.items.map((s) => [s.id, s.coverage.recorded, s.coverage.notCaptured, s.coverage.uncapturedCommands])).toEqual([
      ['s49999', 0, 0, 1],
      ['s49998', 1, 0, 1],
      ['s49997', 0, 0, 1]
    ])
    expect(store.sessions.get('s49990')?.coverage).toMatchObject({ recorded: 0, notCaptured: 1, uncapturedCommands: 1 })
  }, 120_000)
})
