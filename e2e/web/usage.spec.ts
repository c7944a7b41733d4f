import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, snapshot, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'
import { FIXTURES } from '../../src/main/sources/testing/claude-home'

// One workspace holding a real Claude Code session (Sonnet 4.5, fixtures/claude-code/claude-code-log-turns)
// and two real Codex rollouts (gpt-5.3-codex, fixtures/codex/localpush), their recorded cwd moved to it.
const CLAUDE_SESSION = '7acd37a8-2745-4b58-a8a9-46164b22ad9e'
const CLAUDE_CWD = '"cwd":"/Users/dain/workspace/JSSoundRecorder"'
const CODEX_DAY = 'sessions/2026/02/23'
const CODEX_ROLLOUTS = ['rollout-2026-02-23T12-41-04-019c8a4d-8f45-7010-8b5d-7fad920aa6f9.jsonl', 'rollout-2026-02-23T13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl']
const CODEX_CWD = '"cwd":"/redacted/path/da0ba47443"'

test('the Usage view: a workspace\'s tokens and cost by day, model and source, and a session header\'s cost', async ({ page, consoleErrors }, testInfo) => {
  const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-usage-'))
  const project = join(root, 'project')
  mkdirSync(project)
  const workspace = realpathSync(project)
  const cwd = `"cwd":${JSON.stringify(workspace)}`
  const claudeProject = join(root, 'claude', 'projects', workspace.replace(/[^A-Za-z0-9]/g, '-'))
  mkdirSync(claudeProject, { recursive: true })
  const claudeFile = join(FIXTURES, 'claude-code/claude-code-log-turns/-Users-dain-workspace-JSSoundRecorder', `${CLAUDE_SESSION}.jsonl`)
  writeFileSync(join(claudeProject, `${CLAUDE_SESSION}.jsonl`), readFileSync(claudeFile, 'utf8').replaceAll(CLAUDE_CWD, cwd))
  const codexDay = join(root, 'codex', CODEX_DAY)
  mkdirSync(codexDay, { recursive: true })
  for (const name of CODEX_ROLLOUTS) {
    const from = join(FIXTURES, 'codex/localpush', CODEX_DAY, name)
    cpSync(from, join(codexDay, name))
    writeFileSync(join(codexDay, name), readFileSync(from, 'utf8').replaceAll(CODEX_CWD, cwd))
  }
  const server = await startRetraceServer([], { CLAUDE_CONFIG_DIR: join(root, 'claude'), CODEX_HOME: join(root, 'codex') })
  try {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openPath(project)
    const view = new WorkspaceView(page)
    await view.root.waitFor()
    await expect(view.sessionRows, `server output:\n${server.output()}`).toHaveCount(3)

    // The session header: its tokens and cost, and where the cost comes from.
    await view.sessionRows.filter({ hasText: 'claude-code' }).first().click()
    const usage = view.transcript.getByTestId('session-usage')
    await expect(usage).toContainText(/\$\d+\.\d\d/)
    await expect(usage).toHaveAttribute('title', /cost from prices of \d{4}-\d{2}-\d{2}/)

    await page.getByTestId('workspace-menu').locator('summary').click()
    await page.getByTestId('usage-open').click()
    const dialog = page.getByTestId('usage-dialog')
    await expect(dialog.getByTestId('usage-total')).toContainText(/\$\d+\.\d\d for .* tokens over 3 sessions/)
    await expect(dialog.getByTestId('usage-total')).toContainText(/prices of \d{4}-\d{2}-\d{2}/)
    const byModel = dialog.getByTestId('usage-by-model').getByTestId('usage-row')
    await expect(byModel).toHaveCount(2)
    await expect(byModel.nth(0)).toHaveAttribute('data-key', 'claude-sonnet-4-5-20250929')
    await expect(byModel.nth(1)).toHaveAttribute('data-key', 'gpt-5.3-codex')
    for (const row of await byModel.all()) await expect(row).toContainText(/\$\d+\.\d\d/)
    const bySource = dialog.getByTestId('usage-by-source').getByTestId('usage-row')
    await expect(bySource).toHaveCount(2)
    await expect(bySource.nth(0)).toHaveAttribute('data-key', 'claude-code')
    await expect(bySource.nth(1)).toHaveAttribute('data-key', 'codex')
    // Two days: the Claude session's and the rollouts' (23 February 2026).
    await expect(dialog.getByTestId('usage-by-day').getByTestId('usage-row').first()).toHaveAttribute('data-key', /^2026-02-2[23]$/)
    await expect(dialog.getByTestId('usage-unpriced')).toHaveCount(0)
    await snapshot(page, testInfo, '90-usage-view')

    await page.emulateMedia({ colorScheme: 'dark' })
    await page.setViewportSize({ width: 1024, height: 700 })
    await expect(dialog.getByTestId('usage-by-source')).toBeVisible()
    await snapshot(page, testInfo, '91-usage-view-dark-1024')
    await page.getByTestId('usage-close').click()
    await expect(usage).toBeVisible()
    await snapshot(page, testInfo, '92-session-usage-dark-1024')
    expect(consoleErrors).toEqual([])
  } finally {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
})
