import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, snapshot, test } from '../support/fixtures'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'

const SEARCH_SESSION = 'Add full-text search to the notes CLI'
const FLAKY_SESSION = 'Fix the flaky date test'

async function openDemo(page: Page, url: string): Promise<WorkspaceView> {
  const first = new FirstScreen(page)
  await first.goto(url)
  await first.openDemo()
  const workspace = new WorkspaceView(page)
  await expect(workspace.root).toBeVisible()
  return workspace
}

const turnHeader = (workspace: WorkspaceView, turn: number) => workspace.transcript.locator(`[data-testid="turn-header"][data-turn="${turn}"]`)
const diffLines = (scope: ReturnType<Page['locator']>, kind: 'add' | 'del') => scope.locator(`.diff-line[data-kind="${kind}"] .line-code`)

test.describe('diffs wherever a decision is made', () => {
  test('a rewind preview row opens the diff of the disk now against what the rewind writes', async ({ page, server, consoleErrors }, testInfo) => {
    const file = join(server.dataDir, 'demo-workspace', 'src/search.ts')
    const before = readFileSync(file, 'utf8')
    const workspace = await openDemo(page, server.url)
    await workspace.openSession(SEARCH_SESSION)
    await turnHeader(workspace, 2).getByRole('button', { name: 'Rewind files to before this turn' }).click()
    const dialog = page.getByTestId('rewind-dialog')
    const row = dialog.locator('[data-testid="plan-item"][data-path="src/search.ts"]')
    const toggle = row.getByTestId('plan-diff-toggle')
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await toggle.click()
    await expect(toggle).toHaveAttribute('aria-expanded', 'true')
    const diff = row.locator('[data-testid="plan-diff"][data-side="rewind"]')
    await expect(diff).toContainText('The disk now → what the rewind writes')
    // Turn 2 made the search case-insensitive: the rewind takes that line out and puts the old one back.
    await expect(diffLines(diff, 'del')).toContainText(['const words = query.toLowerCase().split(/\\s+/).filter(Boolean)'])
    await expect(diffLines(diff, 'add')).toContainText(['const words = query.split(/\\s+/)'])
    // Opening a diff writes nothing.
    expect(readFileSync(file, 'utf8')).toBe(before)
    await snapshot(page, testInfo, '60-rewind-row-diff')
    await toggle.click()
    await expect(diff).toHaveCount(0)
    expect(consoleErrors).toEqual([])
  })

  test('the preview refreshes itself when a file changes while it is open and focused, and names the file', async ({ page, server, consoleErrors }, testInfo) => {
    const file = join(server.dataDir, 'demo-workspace', 'src/search.ts')
    const workspace = await openDemo(page, server.url)
    await workspace.openSession(SEARCH_SESSION)
    await turnHeader(workspace, 2).getByRole('button', { name: 'Rewind files to before this turn' }).click()
    const dialog = page.getByTestId('rewind-dialog')
    const row = dialog.locator('[data-testid="plan-item"][data-path="src/search.ts"]')
    await expect(row).toBeVisible()
    await expect(row).not.toHaveAttribute('data-conflict', 'true')
    // The window keeps focus the whole time: no focus event, no click.
    expect(await page.evaluate(() => document.hasFocus())).toBe(true)
    // Let the server's watch on the preview's files start.
    await page.waitForTimeout(500)
    writeFileSync(file, `${readFileSync(file, 'utf8')}// edited while the preview was open\n`)
    // Told by the server's watch on the preview's files, well before any periodic check would come.
    await expect(row).toHaveAttribute('data-conflict', 'true', { timeout: 2500 })
    await expect(dialog.getByTestId('rewind-refreshed')).toContainText('src/search.ts changed on disk while this preview was open')
    await expect(diffLines(row.locator('[data-side="yours"]'), 'add')).toHaveText(['// edited while the preview was open'])
    expect(await page.evaluate(() => document.hasFocus())).toBe(true)
    await snapshot(page, testInfo, '66-rewind-preview-refreshed')

    // Dark, 1024 px: a second edit while it is open refreshes it again.
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.setViewportSize({ width: 1024, height: 700 })
    writeFileSync(file, `${readFileSync(file, 'utf8')}// and again\n`)
    await expect(diffLines(row.locator('[data-side="yours"]'), 'add')).toHaveText(['// edited while the preview was open', '// and again'], { timeout: 2500 })
    await snapshot(page, testInfo, '66-rewind-preview-refreshed-dark-1024')
    expect(consoleErrors).toEqual([])
  })

  test('a conflict shows your change before the choice; unticked files stay; a stale preview names the file', async ({ page, server, consoleErrors }, testInfo) => {
    const root = join(server.dataDir, 'demo-workspace')
    const dates = join(root, 'src/dates.ts')
    const testFile = join(root, 'test/dates.test.ts')
    const agentLeft = readFileSync(dates, 'utf8')
    writeFileSync(dates, `${agentLeft}// my own fix, not the agent’s\n`)
    const testBefore = readFileSync(testFile, 'utf8')

    const workspace = await openDemo(page, server.url)
    await workspace.openSession(FLAKY_SESSION)
    await turnHeader(workspace, 2).getByRole('button', { name: 'Rewind files to before this turn' }).click()
    const dialog = page.getByTestId('rewind-dialog')
    const conflict = dialog.locator('[data-testid="plan-item"][data-conflict="true"]')
    await expect(conflict).toHaveAttribute('data-path', 'src/dates.ts')
    // Your change, shown without asking, above the choice: what the agent left → the disk now.
    const yours = conflict.locator('[data-testid="plan-diff"][data-side="yours"]')
    await expect(yours).toContainText('Your change: what the agent left → the disk now')
    await expect(diffLines(yours, 'add')).toHaveText(['// my own fix, not the agent’s'])
    await expect(diffLines(yours, 'del')).toHaveCount(0)
    const order = await conflict.evaluate((el) => {
      const diff = el.querySelector('[data-side="yours"]')
      const choice = el.querySelector('[data-testid="conflict-choice"]')
      return diff && choice ? diff.compareDocumentPosition(choice) & Node.DOCUMENT_POSITION_FOLLOWING : 0
    })
    expect(order).toBeTruthy()
    await snapshot(page, testInfo, '61-rewind-conflict-your-change')

    // Untick the test file: it is counted out and left as it is.
    const testRow = dialog.locator('[data-testid="plan-item"][data-path="test/dates.test.ts"]')
    await expect(dialog.getByTestId('rewind-apply')).toHaveText('Rewind 1 file')
    await testRow.getByTestId('plan-include').uncheck()
    await expect(testRow).toHaveAttribute('data-excluded', 'true')
    await expect(dialog.getByTestId('rewind-apply')).toBeDisabled()
    await conflict.getByTestId('conflict-choice').selectOption('overwrite')
    await expect(dialog.getByTestId('rewind-apply')).toHaveText('Rewind 1 file')

    // The disk changes again while the preview is open: the apply is refused and names the file.
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.setViewportSize({ width: 1024, height: 700 })
    writeFileSync(dates, '// my own fix, second try\n')
    await dialog.getByTestId('rewind-apply').click()
    const error = dialog.getByTestId('rewind-error')
    await expect(error).toHaveAttribute('data-code', 'CONFLICT')
    await expect(error).toContainText('src/dates.ts changed since the preview was made; nothing was written.')
    expect(readFileSync(dates, 'utf8')).toBe('// my own fix, second try\n')
    await snapshot(page, testInfo, '62-rewind-stale-names-file-dark')

    // Preview again: the untick and the choice are kept; applying leaves the unticked file alone.
    await dialog.getByTestId('rewind-replan').click()
    await expect(dialog.locator('[data-testid="plan-item"][data-path="test/dates.test.ts"]')).toHaveAttribute('data-excluded', 'true')
    await snapshot(page, testInfo, '63-rewind-unticked-dark')
    await dialog.getByTestId('rewind-apply').click()
    await expect(dialog.getByTestId('rewind-result')).toBeVisible()
    expect(readFileSync(testFile, 'utf8')).toBe(testBefore)
    expect(readFileSync(dates, 'utf8')).not.toBe('// my own fix, second try\n')
    expect(consoleErrors).toEqual([])
  })

  test('tool calls render as diffs and terminals; the file dialog steps through a turn\'s files', async ({ page, server, consoleErrors }, testInfo) => {
    const workspace = await openDemo(page, server.url)
    await workspace.openSession(FLAKY_SESSION)
    const edit = workspace.toolCall('src/dates.ts').filter({ has: page.locator('.tool-name', { hasText: /^Edit$/ }) }).first()
    await edit.locator('summary').first().click()
    const block = edit.locator('[data-testid="tool-edit"][data-path="src/dates.ts"]')
    await expect(diffLines(block, 'del')).toHaveText(['export function relativeDay(iso: string): string {'])
    await expect(diffLines(block, 'add')).toHaveText(['export function relativeDay(iso: string, now: Date): string {'])
    const run = workspace.toolCall('npm test').first()
    await run.locator('summary').first().click()
    const terminal = run.getByTestId('tool-terminal')
    await expect(terminal.getByTestId('tool-call-input')).toHaveText('$ npm test')
    await expect(terminal.getByTestId('tool-result')).toContainText('AssertionError')
    await snapshot(page, testInfo, '64-tool-call-diff-and-terminal')
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.setViewportSize({ width: 1024, height: 700 })
    await edit.scrollIntoViewIfNeeded()
    await snapshot(page, testInfo, '64-tool-call-diff-and-terminal-dark')

    const turn2 = turnHeader(workspace, 2)
    await turn2.getByTestId('turn-files-toggle').click()
    await turn2.getByTestId('turn-file').filter({ hasText: 'src/dates.ts' }).click()
    const dialog = page.getByTestId('file-dialog')
    await expect(dialog.getByTestId('file-position')).toHaveText('1 of 2')
    await expect(dialog.getByTestId('file-previous')).toBeDisabled()
    await dialog.getByTestId('file-next').click()
    await expect(dialog.getByTestId('file-position')).toHaveText('2 of 2')
    await expect(dialog.locator('.file-dialog-path')).toHaveText('test/dates.test.ts')
    await expect(dialog.getByTestId('file-next')).toBeDisabled()
    await page.keyboard.press('Alt+ArrowUp')
    await expect(dialog.locator('.file-dialog-path')).toHaveText('src/dates.ts')
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.setViewportSize({ width: 1024, height: 700 })
    await snapshot(page, testInfo, '65-file-dialog-nav-dark')
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
    expect(consoleErrors).toEqual([])
  })

  test('restores one file to a version from its history, previewed, and undoes it', async ({ page, server, consoleErrors }, testInfo) => {
    const dates = join(server.dataDir, 'demo-workspace', 'src/dates.ts')
    const now = readFileSync(dates, 'utf8')
    const workspace = await openDemo(page, server.url)
    await workspace.openSession(FLAKY_SESSION)
    const turn2 = turnHeader(workspace, 2)
    await turn2.getByTestId('turn-files-toggle').click()
    await turn2.getByTestId('turn-file').filter({ hasText: 'src/dates.ts' }).click()
    const fileDialog = page.getByTestId('file-dialog')
    await fileDialog.getByTestId('file-view-history').click()
    // The oldest entry: the file after the first edit of turn 2 (an explicit clock, still rounding).
    await fileDialog.getByTestId('history-item').last().click()
    await fileDialog.getByTestId('restore-version').click()

    const dialog = page.getByTestId('rewind-dialog')
    await expect(dialog.getByRole('heading', { name: 'Restore src/dates.ts' })).toBeVisible()
    const row = dialog.locator('[data-testid="plan-item"][data-path="src/dates.ts"]')
    await expect(row).toHaveCount(1)
    await row.getByTestId('plan-diff-toggle').click()
    await expect(diffLines(row.locator('[data-side="rewind"]'), 'add')).toContainText(['  const days = Math.round((now.getTime() - new Date(iso).getTime()) / 86_400_000)'])
    expect(readFileSync(dates, 'utf8')).toBe(now)
    await snapshot(page, testInfo, '67-restore-version-preview')
    await dialog.getByTestId('rewind-apply').click()
    await expect(dialog.getByTestId('rewind-result')).toContainText('Restored src/dates.ts to the file after edit 1 of 2 in turn 2')
    expect(readFileSync(dates, 'utf8')).toContain('Math.round((now.getTime()')
    await dialog.getByTestId('rewind-undo').click()
    await dialog.getByTestId('rewind-apply').click()
    await expect(dialog.getByTestId('rewind-result')).toContainText('Undone: 1 file put back')
    expect(readFileSync(dates, 'utf8')).toBe(now)
    expect(consoleErrors).toEqual([])
  })

  test('compares any two checkpoints of a session: the files that differ and their diffs', async ({ page, server, consoleErrors }, testInfo) => {
    const workspace = await openDemo(page, server.url)
    await workspace.openSession(FLAKY_SESSION)
    await (await workspace.sessionAction('open-compare')).click()
    const dialog = page.getByTestId('compare-dialog')
    await expect(dialog.getByTestId('compare-from')).toHaveValue('1')
    await expect(dialog.getByTestId('compare-to')).toHaveValue('4')
    const files = dialog.getByTestId('compare-file')
    await expect(files).toHaveCount(2)
    await expect(files.first()).toHaveAttribute('data-path', 'src/dates.ts')
    await expect(diffLines(dialog.getByTestId('compare-diff'), 'del')).toContainText(['  const days = Math.round((Date.now() - new Date(iso).getTime()) / 86_400_000)'])
    await files.nth(1).click()
    await expect(files.nth(1)).toHaveAttribute('aria-current', 'true')
    await expect(dialog.getByTestId('compare-diff').locator('.diff-line').first()).toBeVisible()
    // Turn 3 changed no file: between before turn 3 and after it, nothing differs.
    await dialog.getByTestId('compare-from').selectOption('3')
    await expect(dialog.getByTestId('compare-nothing')).toContainText('No file differs between before turn 3 and after the last turn (turn 3)')
    await dialog.getByTestId('compare-from').selectOption('1')
    await expect(files).toHaveCount(2)
    await snapshot(page, testInfo, '68-compare-checkpoints')
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
    expect(consoleErrors).toEqual([])
  })
})
