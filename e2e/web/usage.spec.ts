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

/** A temp root whose `project/` folder the Claude session and both rollouts ran in, and Retrace serving those agents' folders. */
async function usageHistory() {
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
  return { root, project, server }
}

test('the Usage view: a workspace\'s tokens and cost by day, model and source, and a session header\'s cost', async ({ page, consoleErrors }, testInfo) => {
  const { root, project, server } = await usageHistory()
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

test('usage across every workspace: totals, a calendar of the days, by workspace, and a date range', async ({ page, consoleErrors }, testInfo) => {
  const { root, project, server } = await usageHistory()
  try {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openPath(project)
    const view = new WorkspaceView(page)
    await expect(view.sessionRows, `server output:\n${server.output()}`).toHaveCount(3)
    // The workspace's own report, to hold the one across every workspace to.
    await page.getByTestId('workspace-menu').locator('summary').click()
    await page.getByTestId('usage-open').click()
    const workspaceTotal = await page.getByTestId('usage-dialog').getByTestId('usage-total').innerText()
    const workspaceCost = /\$\d+\.\d\d/.exec(workspaceTotal)?.[0]
    expect(workspaceCost).toBeTruthy()

    await first.goto(server.url)
    await expect(page.getByTestId('workspace-count')).toHaveText('1 workspace')
    await page.getByTestId('all-usage-open').click()
    const dialog = page.getByTestId('all-usage-dialog')
    const total = dialog.getByTestId('all-usage-total')
    await expect(total).toContainText('over 3 sessions in 1 workspace')
    await expect(total).toContainText(workspaceCost ?? '')
    // The calendar ends on the last day with usage and shades it; a day without any stays blank.
    const calendar = dialog.getByTestId('usage-calendar')
    await expect(calendar.locator('rect[data-day="2026-02-23"]')).not.toHaveAttribute('data-level', '0')
    await expect(calendar.locator('rect[data-day="2026-02-20"]')).toHaveAttribute('data-level', '0')
    await expect(calendar.locator('rect[data-day="2026-02-24"]')).toHaveCount(0)

    await dialog.getByTestId('usage-group-workspace').click()
    const byWorkspace = dialog.getByTestId('usage-by-workspace').getByTestId('usage-row')
    await expect(byWorkspace).toHaveCount(1)
    await expect(byWorkspace.first()).toHaveAttribute('data-key', realpathSync(project))
    await expect(byWorkspace.first()).toContainText(workspaceCost ?? '')
    await snapshot(page, testInfo, '93-all-usage')

    // From 2026: the two Codex rollouts only (the Claude session ran in November 2025).
    await dialog.getByTestId('usage-since').fill('2026-01-01')
    await expect(total).toContainText('over 2 sessions in 1 workspace')
    await expect(total).toContainText('2026-01-01 to')
    await dialog.getByTestId('usage-group-source').click()
    await expect(dialog.getByTestId('usage-by-source').getByTestId('usage-row')).toHaveCount(1)
    await expect(dialog.getByTestId('usage-by-source').getByTestId('usage-row').first()).toHaveAttribute('data-key', 'codex')
    // After the last day: nothing, said so.
    await dialog.getByTestId('usage-since').fill('2026-03-01')
    await expect(dialog.getByTestId('usage-empty')).toBeVisible()
    await expect(total).toContainText('over 0 sessions')

    await page.emulateMedia({ colorScheme: 'dark' })
    await page.setViewportSize({ width: 1024, height: 700 })
    await dialog.getByText('Every day').click()
    await expect(total).toContainText('over 3 sessions')
    await snapshot(page, testInfo, '94-all-usage-dark-1024')
    expect(consoleErrors).toEqual([])
  } finally {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
})
