import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contractCaller, importTestbed } from './testing/import-testbed'
import { ClaudeHome, FIXTURES } from './testing/claude-home'

// A real Claude Code 2.1.114 agent team (fixtures/claude-code/claude-code-log/PROVENANCE.txt):
// its six sub-agents' files write no `toolUseResult` for most of their Write and Edit calls, only
// the text "File created successfully at: …" / "The file … has been updated successfully."
// 14 such calls: 4 Writes (3 creating, one rewriting the file its agent had created) and 10
// Edits, 7 of them on a file their own agent wrote, 3 on a file another agent wrote (read first).
const SET = join(FIXTURES, 'claude-code/claude-code-log/-experiments-worktrees')
/** The set's folder as its anonymiser left it (`-experiments/worktrees`, in cwd and paths alike), made absolute. */
const ANONYMISED = '-experiments/worktrees'
const CWD = '/home/user/experiments/worktrees'
const MAIN = 'ef958aa1-0e93-49f0-bb71-150f63befcd1'

const { tempDir, runtime } = importTestbed('retrace-results-not-written-')

async function imported() {
  const home = new ClaudeHome(join(tempDir(), 'claude'))
  const folder = home.addFixtureProject(SET, CWD)
  for (const entry of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.jsonl')) continue
    const path = join(folder, entry)
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll(`"${ANONYMISED}`, `"${CWD}`).replaceAll(` ${ANONYMISED}/`, ` ${CWD}/`))
  }
  const rt = runtime({ claude: home.root })
  const workspaceId = rt.store.workspaces.open(CWD, 'ws')
  const report = await rt.imports.importWorkspace(workspaceId)
  return { rt, workspaceId, report }
}

describe('Claude Code Write and Edit calls whose line has no toolUseResult', () => {
  it('journal what the call itself determines and report the rest, one entry per call', async () => {
    const { rt, workspaceId, report } = await imported()
    const call = contractCaller(rt)
    const changed = async (agent: string) => {
      const session = rt.store.sessions.bySourceId(workspaceId, 'claude-code', `${MAIN}/agent-${agent}`)
      const detail = await call('sessions.get', { sessionId: session?.id ?? '' })
      const items = []
      for (const checkpoint of detail.checkpoints) items.push(...(await call('changes.ofTurn', { sessionId: detail.id, turn: checkpoint.turn })).items)
      return items.map((item) => item.path)
    }
    // Write's `content` is the whole file after; "File created" says there was none before. Each
    // Edit then applies exactly once to the content its own agent wrote last: Claude Code refuses
    // an Edit of a file changed since the agent read or wrote it.
    const plan = '.claude/worktrees/agent-a4ca7529/work/research-plan-mode.md'
    const teammates = '.claude/worktrees/agent-a52886dc/work/research-teammates.md'
    const beads = '.claude/worktrees/agent-ab1e6e14/work/research-beads.md'
    expect(await changed('a4ca7529859c158c2')).toEqual(Array(5).fill(plan))
    expect(await changed('a52886dc180afb356')).toEqual(Array(4).fill(teammates))
    expect(await changed('ab1e6e141221a29ab')).toEqual(Array(2).fill(beads))
    // The three round-2 Edits change a file another agent wrote, after reading it: what they
    // edited is not known here, so each is reported with its path and why.
    for (const agent of ['a36efb2a1231c41e2', 'aef063ba534d73153', 'a6aa8ad077d9ea083']) expect(await changed(agent)).toEqual([])
    const reread = 'Claude Code wrote no result for this Edit, and the agent read the file again after its last known change (someone else may have changed it)'
    const reported = report.changesNotJournaled.filter((entry) => entry.file.includes('/subagents/')).map((entry) => entry.reason)
    expect(reported.sort()).toEqual([beads, plan, teammates].map((path) => `file change not captured (${reread}): ${CWD}/${path}`).sort())
  })
})
