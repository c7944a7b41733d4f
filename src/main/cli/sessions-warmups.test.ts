import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
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
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'retrace-cli-warmups-')))
  dirs.push(dir)
  return dir
}

describe('retrace sessions and Claude Code warm-ups', () => {
  it('leaves warm-ups out and says how many, lists them with --all, each marked', async () => {
    // A real project's folder: its 9 empty session files (no cwd: they belong by the folder they
    // are filed in) and the 17 warm-up agents that name them (claude-code-log fixture).
    const workspace = tempDir()
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    home.addFixtureProject(join(FIXTURES, 'claude-code/claude-code-log/-Users-dain-workspace-coderabbit-review-helper'), workspace)
    const out: string[] = []
    const io = { out: (text: string) => out.push(text), err: () => undefined }
    const env = { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: home.root, CODEX_HOME: '/nonexistent' }
    const run = (...args: string[]) => runCli([...args, '--data-dir', join(workspace, '.data')], io, env)

    expect(await run('import', workspace, '--source', 'claude-code')).toBe(0)
    out.length = 0
    expect(await run('sessions', workspace)).toBe(0)
    expect(out.join('\n')).toBe(`No sessions recorded for ${workspace} yet.\n26 warm-ups not listed (Claude Code's start-up agents, and sessions that only held them): --all lists them.`)

    out.length = 0
    expect(await run('sessions', workspace, '--all')).toBe(0)
    const rows = out.join('\n').split('\n').filter((line) => line.includes('claude-code'))
    expect(rows).toHaveLength(26)
    expect(rows.filter((row) => row.includes('  Warmup  [warm-up]'))).toHaveLength(14)
    // Labelled as warm-ups, in parentheses as not their own title: the 9 sessions without a
    // message that only hold warm-ups, and 3 warm-ups whose answers 2.0.55 wrote alone, without the "Warmup" prompt.
    expect(rows.filter((row) => row.includes('  (Warm-up)  [warm-up]'))).toHaveLength(12)

    out.length = 0
    expect(await run('sessions', workspace, '--json')).toBe(0)
    expect(JSON.parse(out.join('\n'))).toMatchObject({ sessions: [], hiddenWarmups: 26 })
  })
})
