import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, snapshot, test } from '../support/fixtures'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'

// The demo's "Add full-text search to the notes CLI": turn 1 writes src/search.ts, turn 2 edits
// its `const words = …` line (src/main/demo/demo-history.ts). A line appended on disk here is
// what no agent turn wrote.
const TURN_2_LINE = 'const words = query.toLowerCase().split(/\\s+/).filter(Boolean)'
const DISK_LINE = '// added by hand, outside any agent turn'

test.describe('blame', () => {
  test('names the turn that last wrote each line, with its prompt on hover, and opens that turn', async ({ page, server, consoleErrors }, testInfo) => {
    appendFileSync(join(server.dataDir, 'demo-workspace', 'src/search.ts'), `${DISK_LINE}\n`)
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openDemo()
    const workspace = new WorkspaceView(page)
    await workspace.openSession('Add full-text search')

    const turn1 = workspace.transcript.locator('[data-testid="turn-header"][data-turn="1"]')
    await turn1.getByTestId('turn-files-toggle').click()
    await turn1.getByTestId('turn-file').filter({ hasText: 'src/search.ts' }).click()
    const dialog = page.getByTestId('file-dialog')
    await dialog.getByTestId('file-view-blame').click()
    await expect(dialog.getByTestId('file-view-blame')).toHaveAttribute('aria-pressed', 'true')
    // Blame has no diff layout to choose.
    await expect(dialog.getByTestId('diff-mode-split')).toHaveCount(0)

    const blame = dialog.getByTestId('file-blame')
    await expect(blame).toContainText('2 agent turns')
    await expect(blame).toContainText('changed on disk since the last recorded version')
    const lines = blame.locator('.blame-line')
    // The edited line: a run of its own, named by turn 2; the lines around it by turn 1.
    const edited = lines.filter({ hasText: TURN_2_LINE })
    await expect(edited.getByTestId('blame-origin')).toHaveText(/Retrace · turn 2/)
    await expect(edited.locator('.blame-who')).toHaveAttribute('title', /Turn 2 of “Add full-text search to the notes CLI”[\s\S]*Prompt: Make it case-insensitive/)
    await expect(lines.first().getByTestId('blame-origin')).toHaveText(/turn 1/)
    // The hand-made line: changed since, by no turn, and not a link.
    const byHand = lines.filter({ hasText: DISK_LINE })
    await expect(byHand.getByTestId('blame-origin')).toHaveText('changed since')
    await expect(byHand.getByRole('button')).toHaveCount(0)
    // Runs are shaded alternately: the edited line's run differs from the one before it.
    const shades = await lines.evaluateAll((rows) => rows.map((row) => (row.classList.contains('blame-odd') ? 'odd' : 'even')))
    expect(new Set(shades).size).toBe(2)
    await edited.getByTestId('blame-origin').hover()
    await snapshot(page, testInfo, '01-blame-light')

    // Dark, at 1024 px.
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.setViewportSize({ width: 1024, height: 700 })
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme ?? '')
    if ((await theme()) !== 'dark') {
      await page.keyboard.press('Escape')
      await workspace.themeToggle.click()
      await expect.poll(theme).toBe('dark')
      await turn1.getByTestId('turn-file').filter({ hasText: 'src/search.ts' }).click()
      await dialog.getByTestId('file-view-blame').click()
    }
    await expect(edited.getByTestId('blame-origin')).toBeVisible()
    await snapshot(page, testInfo, '02-blame-dark-1024')

    // A click on a turn opens it in its transcript: the dialog closes, turn 2 is on screen.
    await edited.getByTestId('blame-origin').click()
    await expect(dialog).toHaveCount(0)
    await expect(workspace.transcript.locator('[data-testid="turn-header"][data-turn="2"]')).toBeVisible()
    expect(consoleErrors).toEqual([])
  })
})
