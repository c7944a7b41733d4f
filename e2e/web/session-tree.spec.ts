import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { expect, snapshot, test } from '../support/fixtures'
import { PROJECT_ROOT } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { SessionTreeView } from '../pages/session-tree'
import { WorkspaceView } from '../pages/workspace-view'

const DEMO_TITLES = [
  'Add full-text search to the notes CLI',
  'Explore: where are notes stored?',
  'Try SQLite FTS5 instead of a scan',
  'Fix the flaky date test',
  'Write release notes for 0.3.0',
  'What does --json print?'
]

test.describe('the session tree', () => {
  test('shows every demo session as a graph, opens transcripts, folds sub-agents', async ({ page, server, consoleErrors }, testInfo) => {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openDemo()
    const workspace = new WorkspaceView(page)
    const tree = new SessionTreeView(page)
    await expect(workspace.sessionRows).toHaveCount(6)
    await tree.open()

    await expect(tree.nodes).toHaveCount(6)
    for (const title of DEMO_TITLES) await expect(tree.node(title)).toBeVisible()
    const main = await tree.sessionId('Add full-text search')
    const explorer = await tree.sessionId('Explore: where are notes stored?')
    const branch = await tree.sessionId('Try SQLite FTS5')
    const flaky = await tree.sessionId('Fix the flaky date test')
    const notes = await tree.sessionId('Write release notes')
    await expect(tree.edges('fork')).toHaveCount(1)
    await expect(tree.edges('sub-agent')).toHaveCount(1)
    await expect(tree.edges('successor')).toHaveCount(1)
    await expect(tree.edges('merge')).toHaveCount(0)
    await expect(tree.edge('fork', main, branch)).toHaveCount(1)
    await expect(tree.edge('sub-agent', main, explorer)).toHaveCount(1)
    await expect(tree.edge('successor', flaky, notes)).toHaveCount(1)
    await expect(tree.node('Fix the flaky date test')).toContainText('3 turns')
    await expect(tree.node('Fix the flaky date test')).toContainText('2 files changed')
    await expect(tree.node('Fix the flaky date test')).toContainText('native')
    await expect(tree.minimap).toBeVisible()
    // Nothing selected yet: the graph has the whole width and no transcript.
    await expect(workspace.transcript).toHaveCount(0)

    // A click opens the transcript beside the graph, and the node shows it is the selected one.
    await tree.node('Fix the flaky date test').click()
    await expect(workspace.transcript.getByTestId('message-user').first()).toContainText('fails about once a day')
    await expect(tree.node('Fix the flaky date test')).toHaveClass(/selected/)

    // Keyboard: nodes take focus, Enter opens one.
    await tree.focusable('Add full-text search').focus()
    await page.keyboard.press('Enter')
    await expect(workspace.transcript).toHaveAttribute('aria-label', /Add full-text search/)
    await expect(tree.node('Add full-text search')).toHaveClass(/selected/)
    await expect(tree.node('Fix the flaky date test')).not.toHaveClass(/selected/)

    // Fold the main session's sub-agent into it, and back.
    const toggle = tree.subAgentToggle('Add full-text search')
    await expect(toggle).toHaveAttribute('aria-expanded', 'true')
    await expect(toggle).toContainText('1 sub-agent')
    await toggle.click()
    await expect(tree.nodes).toHaveCount(5)
    await expect(tree.node('Explore: where are notes stored?')).toHaveCount(0)
    await expect(tree.edges('sub-agent')).toHaveCount(0)
    await expect(tree.edges('fork')).toHaveCount(1)
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await expect(toggle).toContainText('1 folded')
    // Folding did not change which session is open.
    await expect(workspace.transcript).toHaveAttribute('aria-label', /Add full-text search/)
    // Zoom to fit: every card inside the graph pane.
    await tree.fitView.click()
    await expect.poll(() => tree.cardsOutsideView()).toEqual([])
    await snapshot(page, testInfo, '10-session-tree')

    await workspace.themeToggle.click()
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark')
    await snapshot(page, testInfo, '11-session-tree-dark')

    await toggle.click()
    await expect(tree.nodes).toHaveCount(6)
    // Fold all takes the sub-agent and the /clear continuation (issue 41).
    await tree.foldAll.click()
    await expect(tree.nodes).toHaveCount(4)
    await tree.unfoldAll.click()
    await expect(tree.nodes).toHaveCount(6)
    expect(consoleErrors).toEqual([])
  })

  test('lists forks and sub-agents right under their parent, with the turn they start from', async ({ page, server, consoleErrors }, testInfo) => {
    await page.setViewportSize({ width: 1024, height: 720 })
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openDemo()
    const workspace = new WorkspaceView(page)
    await expect(workspace.sessionRows).toHaveCount(6)

    const rows = await workspace.sessionRows.evaluateAll((elements) =>
      elements
        .map((element) => ({
          top: element.getBoundingClientRect().top,
          title: element.querySelector('.session-title')?.textContent ?? '',
          depth: Number(element.getAttribute('data-depth')),
          origin: element.querySelector('[data-testid="session-origin"]')?.textContent ?? null,
          continues: element.querySelector('[data-testid="session-continues"]')?.textContent ?? null
        }))
        // Virtual rows are positioned, not ordered, in the DOM: read them top to bottom.
        .sort((a, b) => a.top - b.top)
        .map(({ top: _top, ...row }) => row)
    )
    const at = (title: string): number => rows.findIndex((row) => row.title.startsWith(title))
    const main = at('Add full-text search')
    // The main session's two children come right after it, oldest first: the sub-agent it
    // started at turn 1, then the branch forked at turn 2, each one level in.
    expect(rows.slice(main, main + 3)).toEqual([
      { title: 'Add full-text search to the notes CLI', depth: 0, origin: null, continues: null },
      { title: 'Explore: where are notes stored?', depth: 1, origin: 'from turn 1', continues: null },
      { title: 'Try SQLite FTS5 instead of a scan', depth: 1, origin: 'from turn 2', continues: null }
    ])
    // A session after /clear is related to the one it continues, not nested under it.
    expect(rows[at('Write release notes')]).toMatchObject({ depth: 0, continues: 'continues “Fix the flaky date test”' })
    await expect(workspace.session('Try SQLite FTS5').getByTestId('session-origin')).toHaveAttribute('title', /branched off its parent/)
    await expect(workspace.session('Fix the flaky date test').locator('.source')).toHaveAttribute('title', /Recorded by Retrace itself/)

    await workspace.openSession('Try SQLite FTS5')
    await snapshot(page, testInfo, '13-session-list-tree')
    await workspace.themeToggle.click()
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark')
    await snapshot(page, testInfo, '13-session-list-tree-dark')
    expect(consoleErrors).toEqual([])
  })

  test('remembers the graph view, draws merges, and switches back to the list', async ({ page, server, consoleErrors }, testInfo) => {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openDemo()
    const workspace = new WorkspaceView(page)
    const tree = new SessionTreeView(page)
    await tree.open()
    await expect(tree.nodes).toHaveCount(6)
    const main = await tree.sessionId('Add full-text search')
    const branch = await tree.sessionId('Try SQLite FTS5')

    // Merge the branch back from the command line, as a user might, then reload.
    const mergeFromCli = () =>
      execFileSync(process.execPath, [join(PROJECT_ROOT, 'bin/retrace.js'), 'merge', branch, '--data-dir', server.dataDir], {
        env: { ...process.env, RETRACE_HOME: '' },
        stdio: 'pipe'
      })
    mergeFromCli()
    // A second merge with nothing new is refused: no messages copied twice, no second edge (issue 28).
    expect(mergeFromCli).toThrow(/already merged/)
    await page.reload()
    await expect(tree.root).toBeVisible()
    await expect(tree.showGraph).toHaveAttribute('aria-pressed', 'true')
    await expect(tree.edges('merge')).toHaveCount(1)
    await expect(tree.edge('merge', branch, main)).toHaveCount(1)
    await expect(page.locator(`[data-testid="tree-node"][data-session-id="${branch}"]`).getByTestId('merged-badge')).toHaveText('merged')
    await snapshot(page, testInfo, '12-session-tree-merged')
    await page.setViewportSize({ width: 1024, height: 768 })
    await snapshot(page, testInfo, '12-session-tree-merged-1024')
    await workspace.themeToggle.click()
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark')
    await snapshot(page, testInfo, '12-session-tree-merged-1024-dark')

    await tree.showList.click()
    await expect(tree.root).toHaveCount(0)
    await expect(workspace.sessionRows).toHaveCount(6)
    await expect(workspace.session('Try SQLite FTS5').getByTestId('merged-badge')).toHaveText('merged')
    await expect(workspace.sessionRows.getByTestId('merged-badge')).toHaveCount(1)
    await page.reload()
    await expect(workspace.sessionRows).toHaveCount(6)
    expect(consoleErrors).toEqual([])
  })
})
