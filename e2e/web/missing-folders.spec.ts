import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, snapshot, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'
import { copiedHistories, RECORDED } from '../../src/main/sources/testing/copied-histories'

test.describe('histories whose folders are gone (a ~/.claude and ~/.codex copied from other computers)', () => {
  test('the first screen lists every recorded workspace, most recent first, the missing folders marked; one opens and browses', async ({ page, consoleErrors }, testInfo) => {
    const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-missing-'))
    const roots = copiedHistories(root)
    mkdirSync(join(root, 'home')) // the folder picker starts there
    const server = await startRetraceServer([], { CLAUDE_CONFIG_DIR: roots.claude, CODEX_HOME: roots.codex, HOME: join(root, 'home') })
    try {
      await page.setViewportSize({ width: 1024, height: 768 })
      const first = new FirstScreen(page)
      await first.goto(server.url)
      await expect(first.recentWorkspaces, `server output:\n${server.output()}`).toHaveCount(5)
      // Most recent activity first, by the times the agents wrote (the copy made every file "new").
      await expect(first.recentWorkspaces.locator('.recent-path')).toHaveText([RECORDED.codexNaya, RECORDED.codexApp, RECORDED.spotter, RECORDED.codexOld, RECORDED.codemie])
      const spotter = first.recentWorkspaces.filter({ hasText: RECORDED.spotter })
      await expect(spotter).toHaveAttribute('data-folder-missing', 'true')
      await expect(spotter.getByText('folder missing')).toBeVisible()
      await expect(spotter).toContainText('3 sessions · claude-code')
      await expect(spotter).toContainText('not imported yet')
      await snapshot(page, testInfo, 'missing-folders-first-screen-light')
      await page.getByTestId('theme-toggle').click()
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark')
      await snapshot(page, testInfo, 'missing-folders-first-screen-dark')
      await page.getByTestId('theme-toggle').click()

      await spotter.click()
      const view = new WorkspaceView(page)
      await expect(view.session('Work on bead spotter-4te')).toBeVisible()
      // The header says so before any rewind is tried.
      await expect(page.getByTestId('workspace-folder-missing')).toHaveText('folder missing')
      await page.getByTestId('theme-toggle').click()
      await snapshot(page, testInfo, 'missing-folders-header-dark')
      await page.getByTestId('theme-toggle').click()
      await view.openSession('Work on bead spotter-4te')
      await expect(view.transcript.getByText('Work on bead spotter-4te').first()).toBeVisible()

      // Browsable, not rewindable: the preview says why and what the user can do instead.
      await view.transcript.locator('[data-testid="turn-header"][data-turn="1"]').getByRole('button', { name: 'Rewind files to before this turn' }).click()
      const dialog = page.getByTestId('rewind-dialog')
      await expect(dialog.getByText('Cannot preview this rewind')).toBeVisible()
      await expect(dialog).toContainText(`The folder of this workspace, ${RECORDED.spotter}, is not on this computer`)
      await expect(dialog).toContainText('fork the conversation without its files')
      // Trying again would only fail again: the dialog offers Close alone.
      await expect(dialog.getByRole('button', { name: 'Try again' })).toHaveCount(0)
      await snapshot(page, testInfo, 'missing-folders-rewind-refused')
      expect(consoleErrors).toEqual([])
    } finally {
      await server.stop()
      rmSync(root, { recursive: true, force: true })
    }
  })
})
