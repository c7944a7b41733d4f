import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { FirstScreen } from '../pages/first-screen'
import { PROJECT_ROOT, startRetraceServer } from '../support/retrace-server'

test('the window says what start-up recovery did with a rewind a crash interrupted, file by file', async ({ page }) => {
  const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-recovery-'))
  const dataDir = join(root, 'data')
  const workspace = join(root, 'billing-service')
  const scene = spawnSync(process.execPath, [join(PROJECT_ROOT, 'node_modules/vite-node/dist/cli.mjs'), join(PROJECT_ROOT, 'src/main/journal/rewind/testing/interrupted-rewind-scene.ts'), dataDir, workspace], { cwd: PROJECT_ROOT, encoding: 'utf8' })
  expect(scene.status, scene.stderr).toBe(0)
  const { edited, deleted, notReached } = JSON.parse(scene.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, string>
  const server = await startRetraceServer([], {}, { dataDir })
  try {
    // `serve` finished the rewind before it served anything, and said so.
    expect(server.output()).toMatch(/was interrupted; it was rolled back/)
    expect(readFileSync(join(workspace, edited ?? ''), 'utf8')).toContain('fixed by hand')
    expect(readFileSync(join(workspace, 'src/module05.ts'), 'utf8')).toContain('total5') // rolled back to the agent's version

    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openPath(workspace)
    const notice = page.getByTestId('recovery-notice')
    await expect(notice).toContainText('A rewind of files was interrupted, and has been rolled back.')
    await expect(notice).toContainText('except 3 files changed after the interruption')
    await expect(notice.getByRole('listitem').filter({ hasText: edited ?? '' })).toContainText('your version is on disk, and saved')
    await expect(notice.getByRole('listitem').filter({ hasText: deleted ?? '' })).toContainText('deleted since')
    await expect(notice.getByRole('listitem').filter({ hasText: notReached ?? '' })).toContainText('your version is on disk')

    // The user's version against the one from before the rewind.
    await notice.getByRole('listitem').filter({ hasText: edited ?? '' }).getByRole('button', { name: 'Compare with the version from before the rewind' }).click()
    const dialog = page.getByTestId('recovery-conflict')
    await expect(dialog).toContainText('fixed by hand after the crash')
    await expect(dialog).toContainText('// renamed')
    await expect(dialog.getByRole('button', { name: 'Save the version from before the rewind…' })).toBeVisible()
    await dialog.getByRole('button', { name: 'Close' }).click()

    await notice.getByRole('button', { name: 'Dismiss' }).click()
    await expect(notice).toHaveCount(0)
    await page.reload() // the workspace stays open (its route is in the URL), without the notice
    await expect(page.getByTestId('workspace-view')).toBeVisible()
    await expect(page.getByText('Rename every value to total')).toBeVisible()
    await expect(page.getByTestId('recovery-notice')).toHaveCount(0)
  } finally {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
})
