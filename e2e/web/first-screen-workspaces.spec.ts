import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { ClaudeHome } from '../../src/main/sources/testing/claude-home'

const WORK = '/home/someone/work'

/** A ~/.claude with four projects under one parent (1 to 4 sessions each) and one elsewhere. */
function histories(root: string): string {
  const claude = new ClaudeHome(join(root, 'claude'))
  const projects = [`${WORK}/alpha`, `${WORK}/beta`, `${WORK}/gamma`, `${WORK}/delta`]
  projects.forEach((cwd, index) => {
    for (let n = 0; n <= index; n++) claude.session(cwd).prompt(`work on ${cwd} #${n}`)
  })
  claude.session('/srv/elsewhere/solo').prompt('a lone session')
  return claude.root
}

test.describe('the first screen with many workspaces', () => {
  test('filters by text, sorts by sessions, groups by parent folder, hides and shows again', async ({ page, consoleErrors }) => {
    const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-first-screen-'))
    mkdirSync(join(root, 'home'))
    const server = await startRetraceServer([], { CLAUDE_CONFIG_DIR: histories(root), HOME: join(root, 'home') })
    try {
      await page.setViewportSize({ width: 1024, height: 768 })
      const first = new FirstScreen(page)
      await first.goto(server.url)
      const paths = first.recentWorkspaces.locator('.recent-path')
      // The index fills behind the first answer; the change feed brings the list.
      await expect(first.recentWorkspaces, `server output:\n${server.output()}`).toHaveCount(5)
      await expect(page.getByTestId('workspace-group')).toHaveCount(1)
      await expect(page.getByTestId('workspace-group').locator('h3')).toContainText(`${WORK}/`)

      await page.getByTestId('workspace-sort').selectOption('sessions')
      await expect(paths).toHaveText([`${WORK}/delta`, `${WORK}/gamma`, `${WORK}/beta`, `${WORK}/alpha`, '/srv/elsewhere/solo'])
      await expect(first.recentWorkspaces.first()).toContainText('4 sessions')

      await page.getByTestId('workspace-filter').fill('elsewhere')
      await expect(paths).toHaveText(['/srv/elsewhere/solo'])
      await expect(page.getByTestId('workspace-count')).toHaveText('1 of 5 workspaces')
      await page.getByTestId('workspace-filter').fill('')

      const gamma = page.locator('.workspace-row', { has: page.locator(`[data-path="${WORK}/gamma"]`) })
      await gamma.getByTestId('workspace-hide').click()
      await expect(first.recentWorkspaces).toHaveCount(4)
      await expect(paths).not.toContainText([`${WORK}/gamma`])
      await page.getByTestId('workspace-show-hidden').check()
      await expect(first.recentWorkspaces).toHaveCount(5)
      await expect(gamma.getByText('hidden', { exact: true })).toBeVisible()
      await gamma.getByTestId('workspace-hide').click() // now "Unhide"
      await expect(page.getByTestId('workspace-show-hidden')).toHaveCount(0)
      await expect(first.recentWorkspaces).toHaveCount(5)
      expect(consoleErrors).toEqual([])
    } finally {
      await server.stop()
      rmSync(root, { recursive: true, force: true })
    }
  })
})
