import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ClaudeHome, FIXTURES } from '../sources/testing/claude-home'
import { runCli } from './main'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'retrace-cli-continue-')))
  dirs.push(dir)
  return dir
}

describe('retrace continue', () => {
  it('writes a new Claude Code session up to the turn and prints how to resume it', async () => {
    // A real Claude Code session (fixtures/claude-code/claude-code-log), under the project folder of a temp workspace.
    const workspace = tempDir()
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const folder = home.addFixtureProject(join(FIXTURES, 'claude-code/claude-code-log/-Users-dain-workspace-JSSoundRecorder'), workspace)
    const out: string[] = []
    const errors: string[] = []
    const io = { out: (text: string) => out.push(text), err: (text: string) => errors.push(text) }
    const env = { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: home.root, CODEX_HOME: '/nonexistent' }
    const run = (...args: string[]) => runCli([...args, '--data-dir', join(workspace, '.data')], io, env)
    expect(await run('import', '--all', '--source', 'claude-code')).toBe(0)

    out.length = 0
    // The agent's own id is accepted for the session, as by every command.
    expect(await run('continue', '7acd37a8-2745-4b58-a8a9-46164b22ad9e', '--turn', '2', '--in', 'claude-code', '--json')).toBe(0)
    const result = JSON.parse(out.join('\n')) as { path: string; agentSessionId: string; command: string; cwd: string; cwdExists: boolean }
    expect(result.path.startsWith(join(home.root, 'projects'))).toBe(true)
    expect(existsSync(result.path)).toBe(true)
    expect(result.command).toBe(`cd ${result.cwd} && claude --resume ${result.agentSessionId}`)
    // The lines record their author's folder, not on this computer.
    expect(result).toMatchObject({ cwd: '/Users/dain/workspace/JSSoundRecorder', cwdExists: false })
    expect(readFileSync(result.path, 'utf8')).toContain(`"sessionId":"${result.agentSessionId}"`)
    expect(existsSync(folder)).toBe(true)

    out.length = 0
    expect(await run('continue', '7acd37a8-2745-4b58-a8a9-46164b22ad9e', '--turn', '1'), errors.join('\n')).toBe(0)
    expect(out.join('\n')).toMatch(
      /^Wrote a new Claude Code session with the conversation up to turn 1 \(\d+ messages and tool calls\):\n {2}\/.+\.jsonl\nResume it with:\n {2}cd .+ && claude --resume [0-9a-f-]{36}\nNote: \/Users\/dain\/workspace\/JSSoundRecorder is not on this computer; Claude Code resumes a session in the folder it ran in, so put the project back there first\.$/
    )

    expect(await run('continue', '7acd37a8-2745-4b58-a8a9-46164b22ad9e', '--in', 'gemini-cli')).toBe(2)
    expect(errors.join('\n')).toContain('--in must be claude-code or codex')
  })
})
