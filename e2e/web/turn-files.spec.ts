import { expect, snapshot, test } from '../support/fixtures'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'

// The demo's "Fix the flaky date test", turn 2: two Edit calls to src/dates.ts and a Write of
// test/dates.test.ts (src/main/demo/demo-history.ts), journaled as file changes.
const ADDED_LINE = 'export function relativeDay(iso: string, now: Date): string {'

test.describe('the files of a turn', () => {
  test('lists a turn’s files, shows a diff unified and side by side, and the file’s history', async ({ page, server, consoleErrors }, testInfo) => {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openDemo()
    const workspace = new WorkspaceView(page)
    await workspace.openSession('Fix the flaky date test')

    // Turn 1 only read files: no toggle. Turn 2 changed two files (one of them twice).
    const turn1 = workspace.transcript.locator('[data-testid="turn-header"][data-turn="1"]')
    const turn2 = workspace.transcript.locator('[data-testid="turn-header"][data-turn="2"]')
    const toggle = turn2.getByTestId('turn-files-toggle')
    await expect(toggle).toContainText('2 files changed')
    // The net line counts of the whole turn (src/dates.ts's two edits counted as one diff).
    await expect(toggle).toContainText(/\+\d+ −\d+/)
    await expect(turn1.getByTestId('turn-files-toggle')).toHaveCount(0)
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await toggle.click()
    await expect(toggle).toHaveAttribute('aria-expanded', 'true')

    const files = turn2.getByTestId('turn-file')
    await expect(files).toHaveCount(2)
    const dates = files.filter({ hasText: 'src/dates.ts' })
    await expect(dates).toContainText('modified')
    await expect(dates).toContainText('2 edits')
    await expect(dates).toContainText(/\+\d+ −\d+/)
    await expect(dates).toContainText('tool')
    await expect(files.filter({ hasText: 'test/dates.test.ts' })).toContainText('+4 −2')
    await snapshot(page, testInfo, '11-turn-files')

    // The diff, unified.
    await dates.click()
    const dialog = page.getByTestId('file-dialog')
    await expect(dialog).toBeVisible()
    await expect(dialog.getByRole('heading', { name: 'src/dates.ts' })).toBeVisible()
    await dialog.getByTestId('diff-mode-unified').click()
    const unified = dialog.getByTestId('diff-unified')
    await expect(unified.locator('[data-kind="add"]').filter({ hasText: ADDED_LINE })).toBeVisible()
    await expect(unified.locator('[data-kind="del"]').filter({ hasText: 'export function relativeDay(iso: string): string {' })).toBeVisible()
    // Highlighted by file extension (TypeScript).
    await expect(unified.locator('.hljs-keyword').first()).toBeVisible()
    await snapshot(page, testInfo, '12-diff-unified')

    // Side by side: the removed line on the left, the added one on the right.
    await dialog.getByTestId('diff-mode-split').click()
    await expect(dialog.getByTestId('diff-mode-split')).toHaveAttribute('aria-pressed', 'true')
    const split = dialog.getByTestId('diff-split')
    await expect(split.locator('.diff-after[data-kind="add"]').filter({ hasText: ADDED_LINE })).toBeVisible()
    await expect(split.locator('.diff-before[data-kind="del"]').first()).toBeVisible()
    await snapshot(page, testInfo, '13-diff-split')

    // History: both edits of turn 2, the content of the selected version.
    await dialog.getByTestId('file-view-history').click()
    const entries = dialog.getByTestId('history-item')
    await expect(entries).toHaveCount(2)
    await expect(entries.first()).toContainText('Fix the flaky date test')
    await expect(entries.first()).toContainText('Turn 2')
    await expect(entries.first()).toContainText('this turn')
    await expect(entries.first()).toContainText('edit 2 of 2')
    await expect(dialog.getByTestId('file-version')).toContainText('startOfDay')
    // The older entry: the first edit, its content and what it changed.
    await entries.nth(1).click()
    await expect(entries.nth(1)).toHaveAttribute('aria-current', 'true')
    await expect(dialog.getByTestId('file-version')).toContainText(ADDED_LINE)
    await expect(dialog.getByTestId('file-version')).not.toContainText('startOfDay')
    await dialog.getByRole('button', { name: 'Changes' }).click()
    await expect(dialog.getByTestId('diff-split').locator('[data-kind="add"]').filter({ hasText: ADDED_LINE })).toBeVisible()
    await dialog.getByRole('button', { name: 'Content' }).click()
    await snapshot(page, testInfo, '14-file-history')

    // Escape closes; focus returns to the file that opened it.
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
    await expect(dates).toBeFocused()

    // Dark theme; the side-by-side choice is remembered.
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme ?? '')
    if ((await theme()) !== 'dark') await workspace.themeToggle.click()
    await expect.poll(theme).toBe('dark')
    await dates.click()
    await expect(dialog.getByTestId('diff-split').locator('[data-kind="add"]').filter({ hasText: ADDED_LINE })).toBeVisible()
    await snapshot(page, testInfo, '15-diff-dark')
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(dates).toBeFocused()
    await snapshot(page, testInfo, '16-turn-files-dark')

    expect(consoleErrors).toEqual([])
  })

  test('a created file’s diff is all additions, and its history starts with the creation', async ({ page, server, consoleErrors }) => {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openDemo()
    const workspace = new WorkspaceView(page)
    await workspace.openSession('Add full-text search')

    const turn1 = workspace.transcript.locator('[data-testid="turn-header"][data-turn="1"]')
    await turn1.getByTestId('turn-files-toggle').click()
    const search = turn1.getByTestId('turn-file').filter({ hasText: 'src/search.ts' })
    await expect(search).toContainText('created')
    await expect(search).toContainText('+26 −0')
    // Keyboard: Enter opens the diff.
    await search.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByTestId('file-dialog')
    await expect(dialog).toBeVisible()
    await dialog.getByTestId('diff-mode-unified').click()
    await expect(dialog.getByTestId('diff-unified').locator('[data-kind="del"]')).toHaveCount(0)
    await expect(dialog.getByTestId('diff-unified').locator('[data-kind="add"]').first()).toBeVisible()

    await dialog.getByTestId('file-view-history').click()
    const entries = dialog.getByTestId('history-item')
    await expect(entries).toHaveCount(2)
    await expect(entries.last()).toContainText('created')
    await expect(entries.first()).toContainText('Turn 2')
    // The creation's changes: the whole file, added.
    await entries.last().click()
    await dialog.getByRole('button', { name: 'Changes' }).click()
    await expect(dialog.getByTestId('diff-unified').locator('[data-kind="add"]').first()).toBeVisible()
    await expect(dialog.getByTestId('diff-unified').locator('[data-kind="del"]')).toHaveCount(0)
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
    await expect(search).toBeFocused()

    // "Show in transcript" jumps to the turn of the selected change.
    await search.click()
    await dialog.getByTestId('file-view-history').click()
    await entries.first().click()
    await dialog.getByRole('button', { name: 'Show in transcript' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(workspace.transcript.getByTestId('message-user').filter({ hasText: 'Make it case-insensitive' })).toBeVisible()
    expect(consoleErrors).toEqual([])
  })
})

test.describe('what a turn’s file list warns about', () => {
  // The demo records neither shell commands that escaped capture nor binary or huge files, so
  // the server's answers are altered in flight (the UI under test is unchanged).
  test('marks shell commands that were not captured, and explains binary and very large files', async ({ page, server, consoleErrors }, testInfo) => {
    await page.route('**/api/rpc/sessions.get', async (route) => {
      const response = await route.fetch()
      const body = (await response.json()) as { ok: boolean; data: { checkpoints: { turn: number; uncapturedCommands: number }[] } }
      for (const checkpoint of body.data.checkpoints) if (checkpoint.turn === 2) checkpoint.uncapturedCommands = 2
      await route.fulfill({ response, json: body })
    })
    await page.route('**/api/rpc/files.diff', async (route) => {
      const response = await route.fetch()
      const body = (await response.json()) as { ok: boolean; data: Record<string, unknown> }
      // test/dates.test.ts is reported binary, src/dates.ts too large.
      const binary = JSON.stringify(route.request().postDataJSON()).includes(Buffer.from('test/dates.test.ts').toString('base64'))
      body.data = { ...body.data, patch: '', added: 0, removed: 0, ...(binary ? { binary: true } : { tooLarge: true }) }
      await route.fulfill({ response, json: body })
    })

    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openDemo()
    const workspace = new WorkspaceView(page)
    await workspace.openSession('Fix the flaky date test')
    const turn2 = workspace.transcript.locator('[data-testid="turn-header"][data-turn="2"]')
    const toggle = turn2.getByTestId('turn-files-toggle')
    await expect(toggle).toContainText('2 shell commands not captured')
    await toggle.click()
    await expect(turn2.getByTestId('uncaptured-notice')).toContainText('2 shell commands in this turn may have changed files Retrace did not see.')
    await snapshot(page, testInfo, '17-uncaptured-commands')

    const dialog = page.getByTestId('file-dialog')
    await turn2.getByTestId('turn-file').filter({ hasText: 'test/dates.test.ts' }).click()
    await expect(dialog.getByTestId('file-notice')).toContainText('Binary file')
    await expect(dialog.getByTestId('file-notice')).toContainText('274 B')
    await expect(dialog.getByTestId('file-notice')).toContainText('451 B')
    await snapshot(page, testInfo, '18-binary-notice')
    await page.keyboard.press('Escape')

    await turn2.getByTestId('turn-file').filter({ hasText: 'src/dates.ts' }).click()
    await expect(dialog.getByTestId('file-notice')).toContainText('Too large to show as a diff')
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
    expect(consoleErrors).toEqual([])
  })
})

test.describe('a diff past the bounds (R27)', () => {
  // The demo has no file with thousands of lines all changed, so the server's answers for
  // src/dates.ts are altered in flight to the ones such a file gets (the UI under test is unchanged).
  test('says "too many changes to diff by line", with sizes and hashes, and shows the two versions side by side', async ({ page, server, consoleErrors }, testInfo) => {
    const datesId = Buffer.from('src/dates.ts').toString('base64')
    await page.route('**/api/rpc/changes.ofTurn', async (route) => {
      const response = await route.fetch()
      const body = (await response.json()) as { ok: boolean; data: { items: { pathId: string; added: number | null; removed: number | null; tooManyChanges: boolean }[] } }
      for (const item of body.data.items) if (item.pathId === datesId) Object.assign(item, { added: null, removed: null, tooManyChanges: true })
      await route.fulfill({ response, json: body })
    })
    await page.route('**/api/rpc/files.diff', async (route) => {
      const response = await route.fetch()
      const body = (await response.json()) as { ok: boolean; data: Record<string, unknown> }
      if (JSON.stringify(route.request().postDataJSON()).includes(datesId)) {
        const before = Array.from({ length: 40 }, (_, i) => `export const old${i} = ${i}`)
        const after = Array.from({ length: 40 }, (_, i) => `export const renamed${i} = ${i * 2}`)
        const patch = [`@@ -1,40 +1,40 @@`, ...before.map((line) => `-${line}`), ...after.map((line) => `+${line}`)].join('\n')
        body.data = { ...body.data, patch, added: 0, removed: 0, tooManyChanges: true }
      }
      await route.fulfill({ response, json: body })
    })

    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openDemo()
    const workspace = new WorkspaceView(page)
    await workspace.openSession('Fix the flaky date test')
    const turn2 = workspace.transcript.locator('[data-testid="turn-header"][data-turn="2"]')
    await turn2.getByTestId('turn-files-toggle').click()
    const row = turn2.getByTestId('turn-file').filter({ hasText: 'src/dates.ts' })
    await expect(row).toContainText('too many changes to diff by line')
    await row.click()
    const dialog = page.getByTestId('file-dialog')
    const notice = dialog.getByTestId('file-notice')
    await expect(notice).toContainText('Too many changes to diff by line')
    await expect(notice).toContainText('Before')
    await expect(notice).toContainText('After')
    const split = dialog.getByTestId('diff-split')
    await expect(split).toContainText('export const old0 = 0')
    await expect(split).toContainText('export const renamed0 = 0')
    // Side by side: the old line on the left of the row where the new one is on the right.
    const firstRow = split.locator('.diff-split-line').first()
    await expect(firstRow.locator('.diff-before')).toContainText('export const old0 = 0')
    await expect(firstRow.locator('.diff-after')).toContainText('export const renamed0 = 0')
    await snapshot(page, testInfo, '40-too-many-changes-light')
    await page.emulateMedia({ colorScheme: 'dark' })
    await snapshot(page, testInfo, '41-too-many-changes-dark')
    await page.setViewportSize({ width: 1024, height: 700 })
    await snapshot(page, testInfo, '42-too-many-changes-1024')
    expect(consoleErrors).toEqual([])
  })
})
