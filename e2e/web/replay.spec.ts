import type { Page } from '@playwright/test'
import { expect, snapshot, test } from '../support/fixtures'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'

const SEARCH_SESSION = 'Add full-text search to the notes CLI'

async function openSearchSession(page: Page, url: string): Promise<WorkspaceView> {
  const first = new FirstScreen(page)
  await first.goto(url)
  await first.openDemo()
  const workspace = new WorkspaceView(page)
  await workspace.openSession(SEARCH_SESSION)
  return workspace
}

test.describe('replay a session', () => {
  test('steps, plays to the next tool call, jumps to a checkpoint with its files, and plays to the end', async ({ page, server, consoleErrors }, testInfo) => {
    const workspace = await openSearchSession(page, server.url)
    const shownMessages = workspace.transcript.locator('[data-seq]')
    await expect(shownMessages.first()).toBeVisible()
    const everything = await shownMessages.count()

    await (await workspace.sessionAction('replay-open')).click()
    const replay = page.getByTestId('replay')
    await expect(replay).toBeVisible()
    // Nothing has played yet: the transcript is empty until Play or Step.
    await expect(shownMessages).toHaveCount(0)
    await expect(page.getByTestId('replay-position')).toHaveText('Not started')

    await page.getByTestId('replay-step').click()
    await page.getByTestId('replay-step').click()
    await expect(shownMessages).toHaveCount(2)
    await expect(replay).toHaveAttribute('data-revealed', '2')
    await expect(workspace.transcript.getByTestId('message-user').first()).toBeVisible()

    // Fast, stopping at the first tool call: the newest message shown is that call.
    await page.getByTestId('replay-speed').selectOption('8')
    await page.getByTestId('replay-pause-at-tools').check()
    await page.getByTestId('replay-play').click()
    await expect(replay).toHaveAttribute('data-playing', 'false', { timeout: 10_000 })
    const revealed = Number(await replay.getAttribute('data-revealed'))
    expect(revealed).toBeGreaterThan(2)
    expect(revealed).toBeLessThan(everything)
    await expect(workspace.transcript.locator('.transcript-row').last()).toContainText(/Replayed \d+ of/)
    await snapshot(page, testInfo, '60-replay-paused-at-tool')

    // Jump to the end of turn 2, the turn that edited src/search.ts: its files show beside the controls.
    await page.getByTestId('replay-jump').selectOption('2')
    await expect(page.getByTestId('replay-position')).toContainText('Turn 2')
    const files = page.getByTestId('replay-files')
    await expect(files).toHaveAttribute('data-turn', '2')
    await expect(files.locator('[data-testid="replay-file"][data-path="src/search.ts"]')).toBeVisible()
    await files.locator('[data-testid="replay-file"][data-path="src/search.ts"]').click()
    await expect(page.locator('dialog.file-dialog')).toContainText('toLowerCase')
    await snapshot(page, testInfo, '61-replay-turn-files-diff')
    await page.keyboard.press('Escape')

    // Play the rest at full speed without stopping: every message is back.
    await page.getByTestId('replay-pause-at-tools').uncheck()
    await page.getByTestId('replay-play').click()
    await expect(page.getByTestId('replay-play')).toHaveText('Play again', { timeout: 30_000 })
    await expect(shownMessages).toHaveCount(everything)
    await expect(page.getByTestId('replay-position')).toContainText('end')
    await snapshot(page, testInfo, '62-replay-end')

    await page.getByTestId('replay-exit').click()
    await expect(replay).toHaveCount(0)
    await expect(shownMessages).toHaveCount(everything)
    expect(consoleErrors).toEqual([])
  })
})
