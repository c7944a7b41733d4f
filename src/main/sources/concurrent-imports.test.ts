import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ClaudeHome, FIXTURES } from './testing/claude-home'
import { importTestbed } from './testing/import-testbed'
import { databaseOf } from '../store/raw-database'

const SPOTTER_CWD = '/home/USER/projects/spotter-worktrees/spotter-4te'
const { tempDir, runtime } = importTestbed('retrace-concurrent-imports-')

/**
 * Two processes on one data folder (the app's background import, a `retrace import` in a
 * terminal, an agent's hook or the MCP server) may import the same agent file at once. Each is
 * a connection of its own here, as each process has; their chunks interleave at the imports'
 * yields between chunks, as two processes' commits do.
 */
describe('two imports of the same files at once', () => {
  it('import each line once: the one that finds the file moved on by the other stops', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    home.addFixtureProject(join(FIXTURES, 'claude-code/spotter/projects-dir'), SPOTTER_CWD)
    const dataDir = join(tempDir(), 'data')
    const first = runtime({ claude: home.root }, { dataDir })
    const second = runtime({ claude: home.root }, { dataDir })
    const workspaceId = first.store.workspaces.open(SPOTTER_CWD, 'spotter')
    expect(second.store.workspaces.open(SPOTTER_CWD, 'spotter')).toBe(workspaceId)

    const [one, two] = await Promise.all([first.imports.importWorkspace(workspaceId), second.imports.importWorkspace(workspaceId)])

    // The same sessions and messages as one import alone gives (the session and its two sub-agents).
    const alone = runtime({ claude: home.root })
    const aloneId = alone.store.workspaces.open(SPOTTER_CWD, 'spotter')
    const report = await alone.imports.importWorkspace(aloneId)
    const sessions = (rt: typeof first, ws: number) =>
      databaseOf(rt.store)
        .prepare('SELECT s.source_session_id AS id, count(m.id) AS messages, count(DISTINCT m.seq) AS seqs FROM sessions s LEFT JOIN messages m ON m.session_id = s.id WHERE s.workspace_id = ? GROUP BY s.id ORDER BY 1')
        .all(ws)
    expect(sessions(alone, aloneId)).toHaveLength(3)
    expect(sessions(first, workspaceId)).toEqual(sessions(alone, aloneId))
    expect(one.messages + two.messages).toBe(report.messages)
    // Neither reports the other's work as a line it could not import.
    expect([...one.skipped, ...two.skipped]).toEqual(report.skipped)
  })

})
