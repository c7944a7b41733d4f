import { expect, snapshot, test } from '../support/fixtures'
import { FirstScreen } from '../pages/first-screen'
import { SessionTreeView } from '../pages/session-tree'
import { WorkspaceView } from '../pages/workspace-view'

// Issue 41 §2 on the demo workspace: the graph's time axis, filter bar, folds, focus and keys.
test.describe('the session graph, filtered, folded, focused and walked with the keyboard', () => {
  test.beforeEach(async ({ page, server }) => {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openDemo()
    await new SessionTreeView(page).open()
  })

  test('filters by text and branches, and the list keeps the same filters', async ({ page, consoleErrors }, testInfo) => {
    const workspace = new WorkspaceView(page)
    const tree = new SessionTreeView(page)
    await expect(tree.nodes).toHaveCount(6)
    await expect(tree.root.getByTestId('time-tick-day').first()).toBeVisible()

    // `/` from anywhere but a field puts the cursor in the filter.
    await page.locator('body').click({ position: { x: 5, y: 300 } })
    await page.keyboard.press('/')
    await expect(workspace.sessionSearch).toBeFocused()
    await page.keyboard.type('flaky')
    await expect(tree.nodes).toHaveCount(1)
    await expect(tree.node('Fix the flaky date test')).toBeVisible()
    await expect(page.getByTestId('tree-count')).toHaveText('1 session')

    // The list view reads the same filter (it searches messages too, so the continuation matches there).
    await tree.showList.click()
    await expect(workspace.sessionSearch).toHaveValue('flaky')
    await expect(workspace.session('Fix the flaky date test')).toBeVisible()
    await expect(workspace.session('What does --json print?')).toHaveCount(0)
    await tree.open()
    await page.getByTestId('filters-clear').click()
    await expect(tree.nodes).toHaveCount(6)

    // Branches only: the branch, with the session it came from dimmed as context.
    await page.getByTestId('filter-branches').click()
    await expect(tree.nodes).toHaveCount(2)
    await expect(tree.node('Try SQLite FTS5')).not.toHaveClass(/context/)
    await expect(tree.node('Add full-text search')).toHaveClass(/context/)
    await snapshot(page, testInfo, 'tree-41-branches-only')
    await page.getByTestId('filter-branches').click()

    // Changed files: sessions whose turns changed nothing go.
    await page.getByTestId('filter-changed-files').click()
    await expect(tree.node('What does --json print?')).toHaveCount(0)
    await expect(tree.node('Fix the flaky date test')).toBeVisible()
    await page.getByTestId('filters-clear').click()
    await expect(tree.nodes).toHaveCount(6)
    expect(consoleErrors).toEqual([])
  })

  test('folds a /clear chain into its session, and focuses on one session and back', async ({ page, consoleErrors }) => {
    const tree = new SessionTreeView(page)
    const chain = tree.subAgentToggle('Fix the flaky date test')
    await expect(chain).toContainText('1 continued')
    await chain.click()
    await expect(tree.node('Write release notes')).toHaveCount(0)
    await expect(chain).toContainText('1 folded')
    await chain.click()
    await expect(tree.nodes).toHaveCount(6)

    // Focus: the sub-agent and the session above it only, then every session again.
    await tree.node('Explore: where are notes stored?').click()
    await page.getByTestId('tree-focus').click()
    await expect(tree.nodes).toHaveCount(2)
    await expect(tree.node('Add full-text search')).toBeVisible()
    await expect(page.getByTestId('tree-focus-bar')).toContainText('Explore: where are notes stored?')
    await page.getByTestId('tree-focus-clear').click()
    await expect(tree.nodes).toHaveCount(6)
    await expect(page.getByTestId('tree-focus-bar')).toHaveCount(0)
    expect(consoleErrors).toEqual([])
  })

  test('arrow keys walk the tree and Enter opens; the cursor follows the selection', async ({ page, consoleErrors }) => {
    const workspace = new WorkspaceView(page)
    const tree = new SessionTreeView(page)
    await tree.node('Fix the flaky date test').click()
    await expect(workspace.transcript).toHaveAttribute('aria-label', /Fix the flaky date test/)

    // Right: the session continuing it; Enter opens it.
    await page.keyboard.press('ArrowRight')
    await expect(tree.focusable('Write release notes')).toHaveClass(/cursor/)
    await expect(tree.focusable('Write release notes')).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(workspace.transcript).toHaveAttribute('aria-label', /Write release notes/)
    await expect(tree.node('Write release notes')).toHaveClass(/selected/)

    // Left: back where it came from, without opening it until Enter.
    await page.keyboard.press('ArrowLeft')
    await expect(tree.focusable('Fix the flaky date test')).toHaveClass(/cursor/)
    await expect(workspace.transcript).toHaveAttribute('aria-label', /Write release notes/)
    await page.keyboard.press('Enter')
    await expect(workspace.transcript).toHaveAttribute('aria-label', /Fix the flaky date test/)

    // Up and down go by time: one row newer, then back.
    const rows = await tree.nodes.evaluateAll((cards) =>
      cards
        .map((card) => ({ id: card.getAttribute('data-session-id'), y: card.getBoundingClientRect().y }))
        .sort((a, b) => a.y - b.y)
        .map((card) => card.id)
    )
    const flaky = await tree.sessionId('Fix the flaky date test')
    const newer = rows[rows.indexOf(flaky) - 1]
    await page.keyboard.press('ArrowUp')
    await expect(tree.root.locator(`.react-flow__node.cursor [data-session-id="${newer}"]`)).toHaveCount(1)
    await page.keyboard.press('ArrowDown')
    await expect(tree.focusable('Fix the flaky date test')).toHaveClass(/cursor/)

    // A selection made elsewhere (the list) moves the cursor with it.
    await tree.showList.click()
    await workspace.session('What does --json print?').click()
    await tree.open()
    await expect(tree.focusable('What does --json print?')).toHaveClass(/cursor/)
    expect(consoleErrors).toEqual([])
  })
})
