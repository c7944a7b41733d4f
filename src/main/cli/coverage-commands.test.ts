import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliCaller } from './call'
import { readTurn, turnText } from '../mcp/turn-reader'
import { importTestbed } from '../sources/testing/import-testbed'
import { ClaudeHome } from '../sources/testing/claude-home'

const { tempDir, runtime } = importTestbed('retrace-coverage-cli-')

/** A Claude Code session whose first turn wrote a file inside the workspace and one in /etc (not captured). */
async function imported() {
  const home = new ClaudeHome(join(tempDir(), 'claude'))
  const cwd = join(tempDir(), 'project')
  mkdirSync(cwd, { recursive: true })
  const file = home.session(cwd)
  file.prompt('write two files')
  file.write('inside.txt', 'in\n', null)
  file.tool('Write', { file_path: '/etc/elsewhere.conf', content: 'x' }, { type: 'create', filePath: '/etc/elsewhere.conf', content: 'x', structuredPatch: [], originalFile: null })
  const rt = runtime({ claude: home.root })
  const workspaceId = rt.store.workspaces.open(cwd, 'project')
  await rt.imports.importWorkspace(workspaceId)
  const session = rt.store.sessions.bySourceId(workspaceId, 'claude-code', file.sessionId)
  return { rt, cwd, home, sessionId: session?.id ?? '' }
}

async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string[] }> {
  const { runCli } = await import('./main')
  const out: string[] = []
  const code = await runCli(args, { out: (text) => out.push(text), err: () => undefined }, env)
  return { code, out }
}

describe('rewind coverage outside the window (R42, R45)', () => {
  it('`retrace changes` lists what is not captured, with why, and the coverage; --json carries both', async () => {
    const { rt, sessionId } = await imported()
    const text = await cli(['changes', sessionId, '--data-dir', rt.store.dataDir])
    expect(text.code).toBe(0)
    expect(text.out.slice(1)).toEqual([
      'Not captured (1; a rewind leaves these as they are):',
      expect.stringMatching(/^turn\s+tool\s+path\s+why\n1\s+Write\s+\/etc\/elsewhere\.conf\s+outside the workspace$/) as string,
      'Rewind coverage: 1 of 2 recorded.'
    ])
    const json = JSON.parse((await cli(['changes', sessionId, '--json', '--data-dir', rt.store.dataDir])).out.join('\n')) as { turn: number; notCaptured: unknown[]; coverage: unknown }[]
    expect(json.map(({ turn, notCaptured, coverage }) => ({ turn, notCaptured, coverage }))).toEqual([
      { turn: 1, notCaptured: [{ turn: 1, tool: 'Write', path: '/etc/elsewhere.conf', reason: 'outside the workspace' }], coverage: { recorded: 1, notCaptured: 1, uncapturedCommands: 0, agentKeepsNoContent: false } }
    ])
  })

  it('`retrace sessions --json` and `import --json` carry the coverage', async () => {
    const { rt, cwd, home } = await imported()
    const env = { CLAUDE_CONFIG_DIR: home.root, HOME: '/nonexistent', CODEX_HOME: '/nonexistent' }
    const sessions = JSON.parse((await cli(['sessions', cwd, '--json', '--data-dir', rt.store.dataDir], env)).out.join('\n')) as { sessions: { coverage: unknown }[] }
    expect(sessions.sessions.map((s) => s.coverage)).toEqual([{ recorded: 1, notCaptured: 1, uncapturedCommands: 0, agentKeepsNoContent: false }])
    const report = JSON.parse((await cli(['import', cwd, '--json', '--data-dir', rt.store.dataDir], env)).out.join('\n')) as { coverage: unknown }
    expect(report.coverage).toEqual({ recorded: 1, notCaptured: 1, uncapturedCommands: 0, agentKeepsNoContent: false })
  })

  it("MCP's turn reader gives a turn's not-captured changes and coverage, in its data and its text", async () => {
    const { rt, sessionId } = await imported()
    const turn = await readTurn(cliCaller(rt), sessionId, 1)
    expect(turn.notCaptured).toEqual([{ tool: 'Write', path: '/etc/elsewhere.conf', reason: 'outside the workspace' }])
    expect(turn.coverage).toEqual({ recorded: 1, notCaptured: 1, uncapturedCommands: 0, agentKeepsNoContent: false })
    const text = turnText(turn)
    expect(text).toContain('Not captured (1; a rewind leaves these as they are):\n  Write /etc/elsewhere.conf: outside the workspace')
    expect(text).toContain('Rewind coverage: 1 of 2 recorded.')
  })
})
