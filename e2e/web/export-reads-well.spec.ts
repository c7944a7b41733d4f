import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, snapshot, test } from '../support/fixtures'
import { PROJECT_ROOT } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'

// Issue 28, "export that reads well": the path can be left out of a session's export, a
// workspace exports as one index page, and a replay has a scrubber.

const FLAKY_SESSION = 'Fix the flaky date test'
const SEARCH_SESSION = 'Add full-text search to the notes CLI'

async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()])
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') }
}

async function openDemo(page: Page, url: string): Promise<WorkspaceView> {
  const first = new FirstScreen(page)
  await first.goto(url)
  await first.openDemo()
  const workspace = new WorkspaceView(page)
  await expect(workspace.session(FLAKY_SESSION).first()).toBeVisible()
  return workspace
}

test.describe('export that reads well', () => {
  test('a session exports without its local path; the workspace exports as one linked index page', async ({ page, server, consoleErrors }, testInfo) => {
    const workspace = await openDemo(page, server.url)
    const folder = join(server.dataDir, 'demo-workspace')
    await workspace.openSession(FLAKY_SESSION)

    await (await workspace.sessionAction('export-open')).click()
    const dialog = page.getByTestId('export-dialog')
    await expect(dialog.getByTestId('export-review')).toBeVisible()
    await dialog.getByTestId('export-anonymize-path').check()
    await expect(dialog.getByTestId('export-review')).toBeVisible()
    await snapshot(page, testInfo, '90-export-anonymize-path')
    const session = await download(page, () => dialog.getByTestId('export-submit').click())
    expect(session.text).not.toContain(folder)
    // The header names the workspace, without its folder beside it.
    expect(session.text).toMatch(/<dt>Workspace<\/dt><dd>[^<]+<\/dd>/)
    // The assistant's replies read as Markdown.
    expect(session.text).toContain('<div class="md">')
    await dialog.getByRole('button', { name: 'Done' }).click()

    await page.getByTestId('workspace-menu').locator('summary').click()
    await page.getByTestId('export-workspace').click()
    const all = page.getByTestId('workspace-export-dialog')
    await expect(all.getByTestId('export-review')).toBeVisible()
    await expect(all.getByTestId('export-submit')).toBeEnabled()
    await snapshot(page, testInfo, '91-export-workspace-light')
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.setViewportSize({ width: 1024, height: 700 })
    await snapshot(page, testInfo, '92-export-workspace-dark-1024')
    await page.emulateMedia({ colorScheme: 'light' })
    const index = await download(page, () => all.getByTestId('export-submit').click())
    expect(index.name).toMatch(/^retrace-workspace-[a-z0-9-]+-\d{4}-\d\d-\d\d\.html$/)
    expect(index.text).toContain(`<a href="#s1">`)
    expect(index.text).toContain(`>${FLAKY_SESSION}</a>`)
    expect(index.text).toContain(`>${SEARCH_SESSION}</a>`)
    expect(index.text).not.toMatch(/<script/i)
    await expect(all.getByTestId('export-result')).toContainText(index.name)

    // The page itself, opened as a reader would: the list, then a click to a session far below.
    const saved = join(server.dataDir, index.name)
    writeFileSync(saved, index.text)
    const reader = await page.context().newPage()
    await reader.goto(`file://${saved}`)
    await expect(reader.locator('nav.index li')).not.toHaveCount(0)
    await reader.setViewportSize({ width: 1100, height: 900 })
    await reader.screenshot({ path: join(PROJECT_ROOT, 'e2e/artifacts/93-workspace-index-page.png') })
    await reader.locator('nav.index a', { hasText: SEARCH_SESSION }).click()
    await expect(reader.locator('article.session', { hasText: SEARCH_SESSION }).locator('h1').first()).toBeInViewport()
    await reader.screenshot({ path: join(PROJECT_ROOT, 'e2e/artifacts/94-workspace-index-session.png') })
    await reader.close()
    expect(consoleErrors).toEqual([])
  })

  test('the replay scrubber moves through the session by pointer and keyboard', async ({ page, server, consoleErrors }, testInfo) => {
    const workspace = await openDemo(page, server.url)
    await workspace.openSession(SEARCH_SESSION)
    await expect(workspace.transcript.locator('[data-seq]').first()).toBeVisible()
    await (await workspace.sessionAction('replay-open')).click()
    const replay = page.getByTestId('replay')
    const scrubber = page.getByTestId('replay-scrubber')
    await expect(scrubber).toHaveValue('0')
    await expect(scrubber).toHaveAttribute('aria-valuetext', /^Not started, \d+ messages$/)
    const total = Number(await scrubber.getAttribute('max'))
    expect(total).toBeGreaterThan(10)
    // Tick marks where turns end: this session has two turns, so one mark between them.
    await expect(replay.locator('datalist option')).toHaveCount(1)

    await scrubber.fill('8')
    await expect(replay).toHaveAttribute('data-revealed', '8')
    await expect(workspace.transcript.locator('.transcript-row').last()).toContainText(`Replayed 8 of ${total} messages`)
    await expect(page.getByTestId('replay-position')).toContainText(`message 8 of ${total}`)
    await scrubber.focus()
    await page.keyboard.press('ArrowRight')
    await expect(replay).toHaveAttribute('data-revealed', '9')
    await expect(scrubber).toHaveAttribute('aria-valuetext', new RegExp(`^Message 9 of ${total}, turn \\d+$`))
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowLeft')
    await expect(replay).toHaveAttribute('data-revealed', '7')
    await snapshot(page, testInfo, '95-replay-scrubber-light')
    await page.keyboard.press('End')
    await expect(replay).toHaveAttribute('data-revealed', String(total))
    await expect(page.getByTestId('replay-position')).toContainText('end')
    await page.keyboard.press('Home')
    await expect(replay).toHaveAttribute('data-revealed', '0')
    // Playing from a scrubbed position goes on from there.
    await scrubber.fill('5')
    await page.getByTestId('replay-speed').selectOption('8')
    await page.getByTestId('replay-play').click()
    await expect.poll(async () => Number(await replay.getAttribute('data-revealed'))).toBeGreaterThan(5)
    await page.getByTestId('replay-play').click()
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.setViewportSize({ width: 1024, height: 700 })
    await scrubber.fill('12')
    await expect(replay).toHaveAttribute('data-revealed', '12')
    await snapshot(page, testInfo, '96-replay-scrubber-dark-1024')
    expect(consoleErrors).toEqual([])
  })
})
