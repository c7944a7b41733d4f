import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { databaseOf } from '../../../store/raw-database'
import { fileToolsOf } from '../../file-tools'
import { accountOf } from '../../call-accounting'
import { SOURCE_NAMES } from '../../registry'
import { contractCaller, importTestbed } from '../import-testbed'
import { everyFixtureRoot } from './every-fixture'

/**
 * The accounting rule (docs/reliability.md R42–R43) on every real fixture of every source, with
 * no expectation about any one file: each call of a tool the source's file-tools list says
 * writes, and each call of a tool in none of its lists whose input names a path, ends as a
 * journaled change (its journal entry names the call) or a not-captured entry (the same), unless
 * its result says the call failed (nothing changed). And each session's coverage figures are
 * what its journal and its entries hold.
 */
const { tempDir, runtime } = importTestbed('retrace-accounting-')

interface CallRow {
  tool_call_id: string | null
  tool_name: string | null
  tool_input: string | null
  turn: number
  failed: number | null
}

describe('every change accounted for, on every real fixture (R42, R43)', () => {
  it('ends each writing or unknown path-naming call as one journaled change or one not-captured entry', async () => {
    const roots = await everyFixtureRoot(tempDir())
    const unaccounted: string[] = []
    const wrongFigures: string[] = []
    const missingLists = new Set<string>()
    const checked = new Map<string, number>()
    const sources = new Set<string>()
    // Each set in a store of its own, as one user's: copies of one history in two sets would
    // otherwise replace each other's sessions.
    for (const root of roots) {
      const rt = runtime({})
      const call = contractCaller(rt)
      const here = join(tempDir(), 'workspace')
      mkdirSync(here)
      const workspace = await call('workspaces.open', { path: here })
      await call('workspaces.addSourceFolder', { workspaceId: workspace.id, source: root.source, path: root.path })
      const db = databaseOf(rt.store)
      const sessions = db.prepare('SELECT id, uid, source, kind, fork_seq FROM sessions ORDER BY id').all() as { id: number; uid: string; source: string; kind: string; fork_seq: number | null }[]
      // A branch's copy of its parent's messages is accounted for in the parent.
      const calls = db.prepare(
        `SELECT m.tool_call_id, m.tool_name, m.tool_input, m.turn,
           (SELECT max(r.is_error) FROM messages r WHERE r.session_id = m.session_id AND r.role = 'tool_result' AND r.tool_call_id = m.tool_call_id) AS failed
         FROM messages m WHERE m.session_id = ? AND m.role = 'tool_call' AND m.seq >= ? ORDER BY m.seq`
      )
      const entries = db.prepare("SELECT count(*) AS n FROM journal_entries e JOIN journal_scopes s ON s.id = e.scope_id WHERE s.session_id = ? AND s.kind = 'turn'")
      for (const session of sessions) {
        sources.add(session.source)
        const tools = fileToolsOf(session.source)
        if (!tools) {
          missingLists.add(session.source)
          continue
        }
        const journaled = new Set(rt.store.journal.journaledToolCalls(session.id))
        const reported = new Set(rt.store.notCaptured.toolCallIds(session.id))
        for (const row of calls.all(session.id, session.kind === 'branch' ? (session.fork_seq ?? 0) : 0) as CallRow[]) {
          const tool = row.tool_name ?? ''
          // The rule's own reading of a call: a `writes` tool's (an editor's `view` aside), or an unknown tool naming a path.
          const counted = accountOf(tools, { toolName: tool, toolInput: row.tool_input === null ? null : (JSON.parse(row.tool_input) as never) }).kind !== 'none'
          if (!counted || row.failed === 1) continue
          checked.set(session.source, (checked.get(session.source) ?? 0) + 1)
          if (row.tool_call_id !== null && (journaled.has(row.tool_call_id) || reported.has(row.tool_call_id))) continue
          unaccounted.push(`${session.source} (fixtures/${root.fixture}): ${tool} call ${row.tool_call_id ?? '(no id)'} in turn ${row.turn}`)
        }
        const summary = rt.store.sessions.get(session.uid)
        const recorded = (entries.get(session.id) as { n: number }).n
        const notCaptured = rt.store.notCaptured.list(session.id).length
        if (summary?.coverage.recorded !== recorded || summary.coverage.notCaptured !== notCaptured) {
          wrongFigures.push(`${session.source} ${session.uid}: coverage ${JSON.stringify(summary?.coverage)}, journal ${recorded}, not captured ${notCaptured}`)
        }
      }
      rt.close()
    }
    // Every source has real files here, and a list of its tools.
    expect([...missingLists].sort()).toEqual([])
    expect(sources.size).toBeGreaterThanOrEqual(SOURCE_NAMES.length - 3)
    expect(wrongFigures).toEqual([])
    expect(unaccounted).toEqual([])
    expect(checked.size).toBeGreaterThan(0)
  }, 600_000)
})
