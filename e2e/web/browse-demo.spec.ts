import { expect, snapshot, test } from '../support/fixtures'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'

test.describe('browsing the demo workspace in the browser', () => {
  test('opens the demo, lists its sessions newest first, and reads a tool call', async ({ page, server, consoleErrors }, testInfo) => {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await expect(first.recentWorkspaces.filter({ hasText: 'notes (demo)' })).toBeVisible()
    await snapshot(page, testInfo, '01-first-screen')

    await first.openDemo()
    const workspace = new WorkspaceView(page)
    await expect(workspace.root).toBeVisible()
    await expect(workspace.sessionRows).toHaveCount(6)
    await expect(workspace.sessionRows.first()).toContainText('What does --json print?')
    await snapshot(page, testInfo, '02-workspace')

    await workspace.openSession('Fix the flaky date test')
    await expect(workspace.transcript.getByTestId('message-user').first()).toContainText('fails about once a day')
    await expect(workspace.transcript.getByTestId('turn-header').first()).toBeVisible()
    const testRun = workspace.toolCall('npm test').first()
    await testRun.locator('summary').click()
    await expect(testRun.getByTestId('tool-call-input')).toContainText('npm test')
    await expect(testRun.getByTestId('tool-result')).toContainText('AssertionError')
    await expect(workspace.transcript.getByTestId('compaction')).toBeVisible()
    await snapshot(page, testInfo, '03-transcript-tool-call')

    expect(consoleErrors).toEqual([])
  })

  test("shows the README's first stops in the demo too: Sources and Connect agents in its More menu", async ({ page, server, consoleErrors }, testInfo) => {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openDemo()
    const menu = page.getByTestId('workspace-menu')
    await menu.locator('summary').click()
    await expect(menu.getByTestId('sources-open')).toBeVisible()
    await expect(menu.getByTestId('connect-agents-open')).toBeVisible()
    await snapshot(page, testInfo, '05-demo-more-menu')

    await menu.getByTestId('sources-open').click()
    const sources = page.getByTestId('sources-dialog')
    await expect(sources.getByTestId('sources-table')).toContainText('Claude Code')
    // The demo's history is Retrace's own: no agent folder is added to it.
    await expect(sources.getByTestId('sources-demo-note')).toContainText('open your project folder')
    await expect(sources.getByTestId('source-folder-add')).toHaveCount(0)
    await sources.getByTestId('sources-close').click()

    await menu.locator('summary').click()
    await menu.getByTestId('connect-agents-open').click()
    const connect = page.getByTestId('connect-agents-dialog')
    await expect(connect.getByTestId('connect-scope-user')).toBeChecked()
    // The demo folder is Retrace's: an agent's settings go to every project, not into it.
    await expect(connect.getByTestId('connect-scope-project')).toBeDisabled()
    await snapshot(page, testInfo, '06-demo-connect-agents')
    expect(consoleErrors).toEqual([])
  })

  test('searches sessions, filters by source, and switches to the context transcript', async ({ page, server, consoleErrors }, testInfo) => {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openDemo()
    const workspace = new WorkspaceView(page)

    await workspace.sessionSearch.fill('flaky')
    await expect(workspace.sessionRows).toHaveCount(2)
    await expect(workspace.session('Fix the flaky date test')).toBeVisible()
    await workspace.sessionSearch.fill('no such words anywhere')
    await expect(workspace.sessionRows).toHaveCount(0)
    await expect(page.getByTestId('empty-state').first()).toBeVisible()
    await workspace.sessionSearch.fill('')
    await expect(workspace.sessionRows).toHaveCount(6)
    await workspace.sourceFilter.selectOption('native')
    await expect(workspace.sessionRows).toHaveCount(6)

    await workspace.openSession('Fix the flaky date test')
    await expect(workspace.transcript.getByTestId('message-user')).toHaveCount(3)
    await workspace.setTranscriptMode('context')
    // What the model saw after the compaction: the summary, then the last turn only.
    await expect(workspace.transcript.getByTestId('compaction')).toBeVisible()
    await expect(workspace.transcript.getByTestId('message-user')).toHaveCount(1)
    await expect(workspace.transcript.getByTestId('message-user')).toContainText('Run the tests 50 times')
    await snapshot(page, testInfo, '04-context-transcript')
    expect(consoleErrors).toEqual([])
  })

  test('finds a message across workspaces and jumps to its session', async ({ page, server, consoleErrors }, testInfo) => {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openDemo()
    const workspace = new WorkspaceView(page)
    // Type into the workspace's own search box: the first screen's goes away when it opens.
    await expect(workspace.sessionRows.first()).toBeVisible()
    await workspace.globalSearch.fill('bm25')
    await expect(workspace.searchResults.first()).toContainText('Try SQLite FTS5')
    await expect(workspace.searchResults.first().locator('mark')).toHaveText(/bm25/i)
    await snapshot(page, testInfo, '05-global-search')
    await workspace.searchResults.first().click()
    await expect(workspace.transcript).toContainText('FTS5 gives ranking')
    expect(consoleErrors).toEqual([])
  })

  test('switches between light and dark themes', async ({ page, server }, testInfo) => {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openDemo()
    const workspace = new WorkspaceView(page)
    await workspace.openSession('Add full-text search')
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme ?? '')
    const before = await theme()
    await workspace.themeToggle.click()
    await expect.poll(theme).not.toBe(before)
    await snapshot(page, testInfo, `06-theme-${await theme()}`)
  })
})
