import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contractCaller, importTestbed } from './testing/import-testbed'
import { ClaudeHome, FIXTURES } from './testing/claude-home'

// A dynamic-Workflow run as claude-code-log synthesised it from real runs' layout
// (fixtures/claude-code/claude-code-log-workflow/PROVENANCE.txt): not a real session.
const SET = join(FIXTURES, 'claude-code/claude-code-log-workflow')
const MAIN = '11110000-0000-4000-8000-000000000001'
const CWD = '/repo'

const { tempDir, runtime } = importTestbed('retrace-workflow-')

function hashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name)
    if (entry.isFile()) out[path] = createHash('sha256').update(readFileSync(path)).digest('hex')
  }
  return out
}

describe('Claude Code workflow agents (subagents/workflows/<run>/)', () => {
  it('become sub-agents of the session that ran the workflow; the journal and snapshot are not sessions', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    home.addFixtureProject(SET, CWD)
    const before = hashes(home.root)
    const rt = runtime({ claude: home.root })
    const workspaceId = rt.store.workspaces.open(CWD, 'ws')
    const report = await rt.imports.importWorkspace(workspaceId)
    const sessions = rt.store.sessions.list({ workspaceId, limit: 50, includeWarmups: true }).items
    const main = rt.store.sessions.bySourceId(workspaceId, 'claude-code', MAIN)
    expect(sessions.filter((s) => s.kind === 'main').map((s) => s.id)).toEqual([main?.id])
    const agents = sessions.filter((s) => s.kind === 'sub-agent')
    expect(agents.map((s) => rt.store.sessions.require(s.id).sourceSessionId).sort()).toEqual(['ag000001', 'ag000002', 'ag000003'].map((id) => `${MAIN}/agent-${id}`))
    // At the Workflow call: its result names the run (toolUseResult.runId) whose folder they are in.
    const callSeq = rt.store.messages.seqOfToolCall(rt.store.sessions.require(main?.id ?? '').rowId, 'toolu_wf01')
    expect(callSeq).toBeGreaterThan(0)
    for (const agent of agents) expect(rt.store.sessions.require(agent.id)).toMatchObject({ parentId: main?.id, depth: 1, agentType: 'workflow-subagent', forkSeq: callSeq })
    // The model each ran on, from its own lines (the metadata names none).
    expect(agents.map((s) => s.model).sort()).toEqual(['claude-opus-4-8', 'claude-sonnet-4-6', 'claude-sonnet-4-6'])
    const detail = await contractCaller(rt)('sessions.get', { sessionId: main?.id ?? '' })
    expect(detail.children).toHaveLength(3)
    expect(report.skipped).toEqual([])
    expect(report.files).toBe(4)
    expect(hashes(home.root)).toEqual(before)
  })
})
