import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { shotsInLooks } from '../support/shots'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'
import { ClaudeHome, FIXTURES } from '../../src/main/sources/testing/claude-home'

// A real Claude Code 2.0.55 session (fixtures/claude-code/claude-code-log-turns, see its
// PROVENANCE.txt) with two questions answered, a plan sent back and the same plan approved,
// and a checklist kept with TodoWrite; moved into a project folder of the test's own.
const SET = { dir: 'claude-code/claude-code-log-turns/-src-deep-manifest', cwd: '/src/deep-manifest' }

/** Scroll the transcript down until `locator` is rendered (the list is virtual). */
async function scrollUntil(page: Page, locator: Locator): Promise<void> {
  await expect(async () => {
    if ((await locator.count()) === 0) await page.locator('.message-scroll').evaluate((element) => element.scrollBy({ top: 400 }))
    await expect(locator.first()).toBeVisible({ timeout: 300 })
    await locator.first().scrollIntoViewIfNeeded({ timeout: 1_000 })
  }).toPass({ timeout: 30_000 })
}

test('Claude Code questions, plans and checklists read as what they are, a plan sent back is not an error', async ({ page, consoleErrors }, testInfo) => {
  const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-cards-'))
  const project = realpathSync(mkdtempSync(join(root, 'project-')))
  mkdirSync(join(root, 'home'))
  const home = new ClaudeHome(join(root, 'claude'))
  const folder = home.addFixtureProject(join(FIXTURES, SET.dir), project)
  for (const name of readdirSync(folder)) writeFileSync(join(folder, name), readFileSync(join(folder, name), 'utf8').replaceAll(SET.cwd, project))
  const server = await startRetraceServer([], { CLAUDE_CONFIG_DIR: home.root, HOME: join(root, 'home') })
  try {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openPath(project)
    const view = new WorkspaceView(page)
    await expect(view.sessionRows.first(), `server output:\n${server.output()}`).toBeVisible()
    await view.sessionRows.first().click()
    await view.transcript.waitFor()

    // The first question: two questions, the chosen option marked, the typed answer shown.
    const question = view.transcript.locator('[data-testid="tool-call"][data-tool="AskUserQuestion"]')
    await scrollUntil(page, question)
    const asked = question.first()
    await expect(asked.locator('summary .badge')).toHaveText('answered')
    await expect(asked.getByTestId('question-card')).toContainText('Which tar formats should be supported?')
    await expect(asked.locator('[data-testid="question-option"][data-chosen="true"]').first()).toContainText('Yes, both filesystem and embedded')
    await expect(asked.getByTestId('question-answer').nth(1)).toContainText('Also .tgz')
    await expect(asked.getByTestId('tool-call-input')).toHaveCount(0)
    await shotsInLooks(page, testInfo, 'cards-question', () => asked.scrollIntoViewIfNeeded())

    // A plan the user sent back: a plan card, not approved, no error anywhere on it.
    const plans = view.transcript.locator('[data-testid="tool-call"][data-tool="ExitPlanMode"]')
    const sentBack = plans.filter({ has: page.locator('[data-testid="card-declined"]') })
    await scrollUntil(page, sentBack)
    const rejected = sentBack.first()
    await expect(rejected.locator('summary .badge')).toHaveText('not approved')
    await expect(rejected.locator('.badge-error')).toHaveCount(0)
    await expect(rejected).not.toHaveClass(/status-error/)
    // The plan is Markdown: its title is a heading.
    await expect(rejected.locator('.plan-text h1').first()).toHaveText('Plan: Report Corrupted Archives in Manifest')
    await expect(rejected.getByTestId('card-declined')).toContainText('The user sent this plan back')
    await shotsInLooks(page, testInfo, 'cards-plan-not-approved', () => rejected.scrollIntoViewIfNeeded())

    // The same plan, approved next.
    const approved = plans.filter({ has: page.locator('summary .badge', { hasText: /^approved$/ }) })
    await scrollUntil(page, approved)
    await expect(approved.first().locator('.plan-file')).toContainText('humble-doodling-wolf.md')

    // A checklist: folded to its progress; opened, each item with its status.
    // One with items done and in progress (the session rewrites its checklist at every step).
    const todo = view.transcript.locator('[data-testid="tool-call"][data-tool="TodoWrite"]').filter({ hasText: /[1-9]\d* of \d+ done · / })
    await scrollUntil(page, todo)
    const checklist = todo.first()
    await checklist.locator('summary').click()
    await expect(checklist.locator('[data-testid="todo-item"][data-status="completed"]').first()).toBeVisible()
    await expect(checklist.locator('[data-testid="todo-item"][data-status="in_progress"]')).toHaveCount(1)
    await expect(checklist.getByTestId('tool-call-input')).toHaveCount(0)
    await shotsInLooks(page, testInfo, 'cards-checklist', () => checklist.scrollIntoViewIfNeeded())
    expect(consoleErrors).toEqual([])
  } finally {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
})
