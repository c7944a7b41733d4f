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
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'retrace-cli-usage-')))
  dirs.push(dir)
  return dir
}

describe('retrace usage', () => {
  // The real spotter session (Claude Code 2.1.39, 12 February 2026) and its two sub-agents.
  async function imported() {
    const workspace = tempDir()
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    home.addFixtureProject(join(FIXTURES, 'claude-code/spotter/projects-dir'), workspace)
    const out: string[] = []
    const err: string[] = []
    const io = { out: (text: string) => out.push(text), err: (text: string) => err.push(text) }
    const env = { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: home.root, CODEX_HOME: '/nonexistent', TZ: 'UTC' }
    const run = async (...args: string[]) => {
      out.length = 0
      err.length = 0
      const code = await runCli(['usage', ...args, '--data-dir', join(workspace, '.data')], io, env)
      return { code, out: out.join('\n'), err: err.join('\n') }
    }
    expect(await runCli(['import', '--all', '--data-dir', join(workspace, '.data')], io, env)).toBe(0)
    return { run }
  }

  it('prints the daily table of ccusage, and its --json shape, over a range of days in either form', async () => {
    const { run } = await imported()
    const table = await run()
    expect(table.code).toBe(0)
    const lines = table.out.split('\n')
    expect(lines.find((line) => line.startsWith('Date'))).toMatch(/^Date {8}Models +Input +Output +Cache Create +Cache Read +Total Tokens +Cost \(USD\)$/)
    // Tokens counted independently over the raw files (one response once: pricing/testing/ccusage.ts).
    expect(lines.find((line) => line.startsWith('2026-02-12'))).toMatch(/^2026-02-12 {2}opus-4-6, haiku-4-5, sonnet-4-5 +2,653 +49,482 +377,624 +16,600,744 +17,030,503 +\$\d+\.\d\d$/)
    expect(lines.at(-1)).toMatch(/^Total +2,653 +49,482 +377,624 +16,600,744 +17,030,503 +\$\d+\.\d\d$/)

    const json = JSON.parse((await run('--json', '--since', '20260212', '--until', '2026-02-12')).out) as { daily: Record<string, unknown>[]; totals: Record<string, unknown> }
    expect(json.daily).toHaveLength(1)
    expect(json.daily[0]).toMatchObject({ period: '2026-02-12', inputTokens: 2653, outputTokens: 49482, cacheCreationTokens: 377624, cacheReadTokens: 16600744, totalTokens: 17030503, modelsUsed: ['claude-opus-4-6', 'claude-haiku-4-5-20251001', 'claude-sonnet-4-5-20250929'] })
    expect(json.totals).toMatchObject({ inputTokens: 2653, totalTokens: 17030503, since: '2026-02-12', until: '2026-02-12' })
    expect((await run('--since', '2026-02-13')).out).toBe('No usage recorded since 2026-02-13. `retrace import --all` reads every agent\'s history into the store first.')
  })

  it('groups by model, source or workspace, and refuses a day that is not one', async () => {
    const { run } = await imported()
    // The session is stored under the folder it recorded (one session, one row).
    expect((await run('--by', 'workspace')).out).toMatch(/\n\/home\/USER\/projects\/spotter-worktrees\/spotter-4te +3 +2,653 +49,482 /)
    expect((await run('--by', 'source')).out).toMatch(/\nclaude-code +3 +2,653 /)
    const models = JSON.parse((await run('--by', 'model', '--json')).out) as { models: { model: string }[] }
    expect(models.models.map((row) => row.model).sort()).toEqual(['claude-haiku-4-5-20251001', 'claude-opus-4-6', 'claude-sonnet-4-5-20250929'])
    const wrong = await run('--since', '2026-02-30')
    expect(wrong.code).toBe(2)
    expect(wrong.err).toContain('--since must be a day as YYYY-MM-DD or YYYYMMDD, not "2026-02-30".')
    expect((await run('--by', 'week')).code).toBe(2)
  })
})
