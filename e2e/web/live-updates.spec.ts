import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '../support/fixtures'
import { FirstScreen } from '../pages/first-screen'

test.describe('live updates', () => {
  test('a workspace opened in one tab appears in the other tab without a reload', async ({ page, context, server, consoleErrors }) => {
    const watching = new FirstScreen(page)
    await watching.goto(server.url)
    await expect(watching.recentWorkspaces).toHaveCount(1)

    const project = join(server.dataDir, 'my-project')
    mkdirSync(project)
    const other = new FirstScreen(await context.newPage())
    await other.goto(server.url)
    await other.openPath(project)
    await expect(other.page.getByTestId('workspace-view')).toBeVisible()

    // The server pushed data.changed {workspaces}; the first tab refetched its recent list.
    await expect(watching.recentWorkspaces.filter({ hasText: 'my-project' })).toBeVisible()
    await expect(watching.recentWorkspaces).toHaveCount(2)
    expect(consoleErrors).toEqual([])
  })
})
