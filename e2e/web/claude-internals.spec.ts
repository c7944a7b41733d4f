import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { expect, snapshot, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'
import { ClaudeHome, FIXTURES } from '../../src/main/sources/testing/claude-home'

// Real Claude Code sessions (fixtures/claude-code, see their PROVENANCE.txt), moved into one
// project folder: spotter (2.1.39: /compact under a caveat, with PreCompact hook output), the
// teammate experiment (2.1.114: Bash-only turns, /exit under a caveat) and danieldemmel.me-next
// (Read results carrying a <system-reminder>).
const SETS: { dir: string; cwd: string }[] = [
  { dir: 'claude-code/spotter/projects-dir', cwd: '/home/USER/projects/spotter-worktrees/spotter-4te' },
  { dir: 'claude-code/claude-code-log/-experiments-worktrees', cwd: '-experiments/worktrees' },
  { dir: 'claude-code/claude-code-log/-Users-dain-workspace-danieldemmel-me-next', cwd: '/Users/dain/workspace/danieldemmel.me-next' }
]

function claudeHomeWith(root: string, project: string): ClaudeHome {
  const home = new ClaudeHome(join(root, 'claude'))
  for (const set of SETS) {
    const folder = home.addFixtureProject(join(FIXTURES, set.dir), project)
    // Claude Code matches a session to a folder by the cwd recorded inside it.
    for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.jsonl')) continue
      const file = join(entry.parentPath, entry.name)
      writeFileSync(file, readFileSync(file, 'utf8').replaceAll(set.cwd, project))
    }
  }
  return home
}

/** Scroll the transcript to its end (the list is virtual: loads the rest as it goes). */
async function scrollToEnd(page: Page): Promise<void> {
  await expect(async () => {
    await page.locator('.message-scroll').evaluate((element) => element.scrollTo({ top: element.scrollHeight }))
    await expect(page.locator('.transcript-tail')).toContainText('End of transcript', { timeout: 500 })
  }).toPass({ timeout: 15_000 })
}

/** Scroll the transcript down until `locator` is rendered (the list is virtual). */
async function scrollUntil(page: Page, locator: Locator): Promise<void> {
  await expect(async () => {
    if ((await locator.count()) === 0) await page.locator('.message-scroll').evaluate((element) => element.scrollBy({ top: 300 }))
    await expect(locator.first()).toBeVisible({ timeout: 300 })
    // Inside the retry: the virtual list may re-render the row while it scrolls into view.
    await locator.first().scrollIntoViewIfNeeded({ timeout: 1_000 })
  }).toPass({ timeout: 20_000 })
}

test('Claude Code internals fold away, /compact goes into its marker, uncaptured commands are listed, an empty workspace says where it looked', async ({ page, consoleErrors }, testInfo) => {
  const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-internals-'))
  const project = realpathSync(mkdtempSync(join(root, 'project-')))
  const empty = realpathSync(mkdtempSync(join(root, 'empty-')))
  mkdirSync(join(root, 'home'))
  const home = claudeHomeWith(root, project)
  const server = await startRetraceServer([], { CLAUDE_CONFIG_DIR: home.root, HOME: join(root, 'home') })
  try {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openPath(project)
    const view = new WorkspaceView(page)
    await expect(view.session('Work on bead spotter-4te'), `server output:\n${server.output()}`).toBeVisible()

    // The teammate experiment: its turns changed files only through Bash.
    await view.openSession('OK, we')
    const turn1 = view.transcript.locator('[data-testid="turn-header"][data-turn="1"]')
    // 4 Bash calls, 3 of them only reading (git status, git log, ls…): 1 counted.
    await expect(turn1.getByTestId('turn-files-toggle')).toContainText('1 shell command not captured')
    await turn1.getByTestId('turn-files-toggle').click()
    await expect(turn1.getByTestId('uncaptured-commands').locator('li')).toHaveCount(1)
    await expect(turn1.getByTestId('uncaptured-commands')).toContainText('git merge --no-ff alice/research-plan-mode')
    await snapshot(page, testInfo, 'internals-01-uncaptured-commands')

    // Its end: the caveat, /exit and "See ya!" folded into one dim line.
    await scrollToEnd(page)
    const folded = view.transcript.getByTestId('internals-line')
    await expect(folded).toHaveText('⋯ 3 Claude Code internals: caveat · /exit · command output')
    await expect(view.transcript.getByText('See ya!')).toHaveCount(0)
    await snapshot(page, testInfo, 'internals-02-folded')
    await folded.click()
    await expect(page.getByTestId('internals-toggle')).toHaveAttribute('aria-pressed', 'true')
    await scrollToEnd(page)
    await expect(view.transcript.locator('.internal').filter({ hasText: 'See ya!' })).toBeVisible()
    await expect(view.transcript.locator('.internal').filter({ hasText: 'Caveat: The messages below were generated by the user' })).toBeVisible()
    await snapshot(page, testInfo, 'internals-03-shown')
    await (await view.sessionAction('internals-toggle')).click()
    await expect(view.transcript.getByTestId('internals-line')).toBeVisible()

    // Spotter: /compact, its caveat and its output (a PreCompact hook's) are one compaction marker.
    await view.openSession('Work on bead spotter-4te')
    await page.getByTestId('jump-to-turn').fill('2')
    await page.getByTestId('jump-to-turn').press('Enter')
    await expect(view.transcript.locator('[data-testid="turn-header"][data-turn="2"]')).toBeVisible()
    await page.locator('.message-scroll').evaluate((element) => element.scrollBy({ top: -160 }))
    const marker = view.transcript.getByTestId('compaction')
    await expect(marker.getByTestId('compaction-command')).toContainText('/compact and continue with the reamining tasks')
    await expect(view.transcript.getByText('PreCompact [bd prime] completed')).toHaveCount(0)
    await expect(view.transcript.getByText('Caveat: The messages below')).toHaveCount(0)
    await snapshot(page, testInfo, 'internals-04-compact-marker')

    // Its file history is dated by the session's turns (12 Feb 2026), not by today's import.
    await page.getByTestId('jump-to-turn').fill('1')
    await page.getByTestId('jump-to-turn').press('Enter')
    const spotterTurn1 = view.transcript.locator('[data-testid="turn-header"][data-turn="1"]')
    await spotterTurn1.getByTestId('turn-files-toggle').click()
    await spotterTurn1.getByTestId('turn-file').first().click()
    const dialog = page.getByTestId('file-dialog')
    await dialog.getByTestId('file-view-history').click()
    const entries = dialog.getByTestId('history-item')
    await expect(entries.first()).toBeVisible()
    for (const time of await entries.locator('time').all()) await expect(time).toHaveAttribute('datetime', /^2026-02-12T/)
    await snapshot(page, testInfo, 'internals-05-file-history-dates')
    await page.keyboard.press('Escape')

    // danieldemmel.me-next: the reminder Claude Code appended to a Read result is set apart.
    await view.openSession('HTML Ruby Tokenizer')
    const read = view.transcript.getByTestId('tool-call').filter({ hasText: /Read\s*\S*tokenizer\.css/ })
    await scrollUntil(page, read)
    await read.locator('summary').first().click()
    await expect(read.getByTestId('reminders-folded')).toHaveText('⋯ 1 system reminder from Claude Code')
    await expect(read.getByTestId('tool-result')).not.toContainText('Whenever you read a file')
    await read.getByTestId('reminders-folded').scrollIntoViewIfNeeded()
    await snapshot(page, testInfo, 'internals-06-reminder-folded')

    // A VS Code session: named by its prompt, the IDE's note on the opened file set apart.
    await view.openSession('I keep getting mysterious build errors')
    const prompt = view.transcript.getByTestId('message-user').first()
    await expect(prompt).toContainText('I keep getting mysterious build errors')
    await expect(prompt).not.toContainText('The user opened the file')
    // The IDE's note is kept, as a line of the turn after the prompt (R56), not in the prompt's words.
    await expect(view.transcript.locator('.msg-system').filter({ hasText: 'The user opened the file' }).first()).toBeVisible()
    await snapshot(page, testInfo, 'internals-06b-ide-note')
    await view.openSession('HTML Ruby Tokenizer')
    await scrollUntil(page, read)
    // Back in the session, the call may have been folded again.
    if (!(await read.first().evaluate((element) => element instanceof HTMLDetailsElement && element.open))) await read.locator('summary').first().click()

    // Dark, 1024 px: the internals shown, dimmed.
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.setViewportSize({ width: 1024, height: 700 })
    await (await view.sessionAction('internals-toggle')).click()
    await expect(read.getByTestId('reminders')).toContainText('Whenever you read a file')
    // The rows were re-measured at the new width: find the reminder again from the top.
    await page.locator('.message-scroll').evaluate((element) => element.scrollTo({ top: 0 }))
    await scrollUntil(page, read.getByTestId('reminders'))
    await snapshot(page, testInfo, 'internals-07-reminder-shown-dark')
    await view.openSession('OK, we')
    await scrollToEnd(page)
    await expect(view.transcript.locator('.internal').filter({ hasText: 'See ya!' })).toBeVisible()
    await snapshot(page, testInfo, 'internals-08-shown-dark')
    await (await view.sessionAction('internals-toggle')).click()

    // A folder no agent recorded: where each source looked, and the way to Sources.
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.emulateMedia({ colorScheme: 'light' })
    await first.goto(server.url)
    await first.openPath(empty)
    const looked = page.getByTestId('where-looked')
    await expect(looked).toContainText('Retrace found no agent history recorded in this folder')
    await expect(looked.getByTestId('where-looked-source').filter({ hasText: 'Claude Code' })).toContainText(home.root)
    await snapshot(page, testInfo, 'internals-09-empty-workspace')
    await looked.getByTestId('sources-open').click()
    await expect(page.getByTestId('sources-dialog')).toBeVisible()
    await page.getByTestId('sources-close').click()
    expect(consoleErrors).toEqual([])
  } finally {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
})
