import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SHELL_CAPTURE_HINT } from '../../shared/shell-capture'
import { contractCaller, importTestbed } from './testing/import-testbed'
import { ClaudeHome, FIXTURES } from './testing/claude-home'

// A real Claude Code 2.1.114 session (fixtures/claude-code/claude-code-log/PROVENANCE.txt) whose
// two turns changed files only through Bash (`git merge --no-ff …` of its agents' branches): each
// turn's file-history-snapshot tracks no file, so neither Claude Code nor its tool results know
// what those commands changed.
const SET = join(FIXTURES, 'claude-code/claude-code-log/-experiments-worktrees')
const CWD = '-experiments/worktrees'
const MAIN = 'ef958aa1-0e93-49f0-bb71-150f63befcd1'

const { tempDir, runtime } = importTestbed('retrace-shell-turns-')

describe('Claude Code turns whose edits were all made through Bash', () => {
  it('are marked not captured, per command, and the command line says which hooks capture them', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    home.addFixtureProject(SET, CWD)
    const rt = runtime({ claude: home.root })
    const workspaceId = rt.store.workspaces.open(CWD, 'ws')
    await rt.imports.importWorkspace(workspaceId)
    const call = contractCaller(rt)
    const session = rt.store.sessions.bySourceId(workspaceId, 'claude-code', MAIN)
    const detail = await call('sessions.get', { sessionId: session?.id ?? '' })
    // Turn 1 ran 4 Bash commands, 3 of them only reading (`git status && git log … && ls`), and
    // the merge; turn 2 ran 5: 2 only read (`git log`), a `for` loop, `git fetch` and the merge
    // may write. (`/exit`, a local command, is no turn.)
    expect(detail.checkpoints.map((c) => [c.turn, c.uncapturedCommands])).toEqual([
      [1, 1],
      [2, 3]
    ])
    for (const turn of [1, 2]) expect((await call('changes.ofTurn', { sessionId: detail.id, turn })).items).toEqual([])
    // The turns list the commands they count, as the agent ran them.
    const listed = async (turn: number) => (await call('changes.shellCommands', { sessionId: detail.id, turn })).items.map((item) => item.command.split('\n')[0]?.slice(0, 40))
    expect(await listed(1)).toEqual(['git merge --no-ff alice/research-plan-mo'])
    expect(await listed(2)).toEqual(['for d in .claude/worktrees/agent-*; do e', 'git fetch --all 2>&1 | head -5; git log ', 'git merge --no-ff alice/research-plan-mo'])

    const { runCli } = await import('../cli/main')
    const out: string[] = []
    expect(await runCli(['changes', detail.id, '--data-dir', rt.store.dataDir], { out: (text) => out.push(text), err: () => undefined }, {})).toBe(0)
    expect(out).toEqual([
      'No file changes recorded for "' + detail.title + '".',
      'Turn 1 ran 1 shell command whose file changes were not captured.',
      'Turn 2 ran 3 shell commands whose file changes were not captured.',
      SHELL_CAPTURE_HINT,
      'Rewind coverage: 0 of 4 recorded.'
    ])
  })
})
