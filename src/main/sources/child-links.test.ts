import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ClaudeHome, FIXTURES } from './testing/claude-home'
import { contractCaller, importTestbed } from './testing/import-testbed'

// A real Claude Code session whose Task calls started sub-agents (fixtures/claude-code/claude-code-log).
const PROJECT = join(FIXTURES, 'claude-code/claude-code-log/-experiments-worktrees')
// The fixture's lines record this (anonymised) cwd.
const CWD = '-experiments/worktrees'
const MAIN = 'ef958aa1-0e93-49f0-bb71-150f63befcd1'

const { tempDir, runtime } = importTestbed('retrace-child-links-')

describe("a session's children say where they left it", () => {
  it("links each sub-agent to the parent's Task / Agent call that started it, and the sub-agent back to it", async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    home.addFixtureProject(PROJECT, CWD)
    const rt = runtime({ claude: home.root })
    const workspaceId = rt.store.workspaces.open(CWD, 'ws')
    await rt.imports.importWorkspace(workspaceId)
    const call = contractCaller(rt)
    const main = rt.store.sessions.bySourceId(workspaceId, 'claude-code', MAIN)
    if (!main) throw new Error('main session not imported')
    const detail = await call('sessions.get', { sessionId: main.id })
    const subAgents = detail.children.filter((child) => child.kind === 'sub-agent')
    expect(subAgents.length).toBeGreaterThan(0)
    const page = await call('transcript.page', { sessionId: main.id, limit: 500 })
    for (const agent of subAgents) {
      // The seq the child hangs at is the call that started it…
      const started = page.items.find((message) => message.seq === agent.forkSeq)
      expect(started?.role, agent.title).toBe('tool_call')
      expect(['Task', 'Agent']).toContain(started?.toolName)
      // …and the child's own detail names the same parent and place (the link back).
      const child = await call('sessions.get', { sessionId: agent.id })
      expect(child.parent?.id).toBe(main.id)
      expect(child.forkSeq).toBe(agent.forkSeq)
    }
  })
})
