import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { sumCoverage } from '../../../shared/coverage'
import { databaseOf } from '../raw-database'
import { openStore, type Store } from '../store'

/** A workspace's coverage in one query is what paging through its session list and summing gives. */
describe("a workspace's rewind coverage", () => {
  let dataDir: string
  let store: Store
  afterEach(() => {
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("sums its own sessions' coverage, warm-ups too, not a subfolder's", () => {
    dataDir = mkdtempSync(join(tmpdir(), 'retrace-workspace-coverage-'))
    store = openStore(dataDir)
    const workspaceId = store.workspaces.open(join(dataDir, 'w'), 'w')
    const subfolderId = store.workspaces.open(join(dataDir, 'w', 'sub'), 'sub')
    const db = databaseOf(store)
    const session = db.prepare("INSERT INTO sessions (uid, workspace_id, source, title, kind, warmup, created_at, updated_at) VALUES (?, ?, ?, 't', 'main', ?, ?, ?)")
    const checkpoint = db.prepare('INSERT INTO checkpoints (session_id, turn, messages_before, uncaptured_commands, created_at) VALUES (?, 1, 0, ?, 0)')
    const notCaptured = db.prepare("INSERT INTO not_captured_changes (session_id, turn, tool, reason) VALUES (?, 1, 'apply_patch', 'r')")
    const scope = db.prepare("INSERT INTO journal_scopes (workspace_id, session_id, turn, kind, created_at) VALUES (?, ?, 1, 'turn', 0)")
    const change = db.prepare("INSERT INTO journal_entries (scope_id, op, path, observed, created_at) VALUES (?, 'delete', x'61', 'tool', 0)")
    const add = (uid: string, workspace: number, source: string, warmup: number, counts: { commands: number; missed: number; journaled: number }) => {
      const rowId = Number(session.run(uid, workspace, source, warmup, 1, 1).lastInsertRowid)
      checkpoint.run(rowId, counts.commands)
      for (let i = 0; i < counts.missed; i++) notCaptured.run(rowId)
      const scopeId = Number(scope.run(workspace, rowId).lastInsertRowid)
      for (let i = 0; i < counts.journaled; i++) change.run(scopeId)
    }
    add('a', workspaceId, 'claude-code', 0, { commands: 2, missed: 1, journaled: 3 })
    add('b', workspaceId, 'aider', 1, { commands: 0, missed: 2, journaled: 1 })
    add('c', subfolderId, 'codex', 0, { commands: 5, missed: 5, journaled: 5 })
    const listed = store.sessions.list({ workspaceId, includeWarmups: true, limit: 500 }).items.map((item) => item.coverage)
    expect(store.workspaceCoverage.of(workspaceId)).toEqual(sumCoverage(listed))
    expect(store.workspaceCoverage.of(workspaceId)).toEqual({ recorded: 4, notCaptured: 3, uncapturedCommands: 2, agentKeepsNoContent: false })
    const emptyId = store.workspaces.open(join(dataDir, 'empty'), 'empty')
    expect(store.workspaceCoverage.of(emptyId)).toEqual({ recorded: 0, notCaptured: 0, uncapturedCommands: 0, agentKeepsNoContent: false })
    const every = store.workspaceCoverage.ofEvery()
    expect(every.get(workspaceId)).toEqual(store.workspaceCoverage.of(workspaceId))
    expect(every.get(subfolderId)).toEqual({ recorded: 5, notCaptured: 5, uncapturedCommands: 5, agentKeepsNoContent: false })
    expect(every.get(emptyId)).toEqual(store.workspaceCoverage.of(emptyId))
  })
})
