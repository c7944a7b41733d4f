import type { Locator, Page } from '@playwright/test'
import { expect, snapshot, test } from '../support/fixtures'
import { FirstScreen } from '../pages/first-screen'
import { SessionTreeView } from '../pages/session-tree'
import { WorkspaceView } from '../pages/workspace-view'

// The demo: "Try SQLite FTS5 instead of a scan" branched from "Add full-text search to the notes
// CLI" at turn 2, where the parent made its search case-insensitive; the branch changed no file.
const PARENT = 'Add full-text search to the notes CLI'
const BRANCH = 'Try SQLite FTS5 instead of a scan'
const SUB_AGENT = 'Explore: where are notes stored?'

async function openDemo(page: Page, url: string): Promise<WorkspaceView> {
  const first = new FirstScreen(page)
  await first.goto(url)
  await first.openDemo()
  const workspace = new WorkspaceView(page)
  await expect(workspace.root).toBeVisible()
  return workspace
}

const diffLines = (scope: Locator, kind: 'add' | 'del') => scope.locator(`.diff-line[data-kind="${kind}"] .line-code`)

/** The parent's turn 2 made the search case-insensitive; the branch kept the scan of before. */
async function expectSearchDiff(dialog: Locator): Promise<void> {
  const files = dialog.getByTestId('compare-file')
  await expect(files).toHaveCount(1)
  await expect(files.first()).toHaveAttribute('data-path', 'src/search.ts')
  const diff = dialog.getByTestId('compare-diff')
  await expect(diffLines(diff, 'del')).toContainText(['  const words = query.toLowerCase().split(/\\s+/).filter(Boolean)'])
  await expect(diffLines(diff, 'add')).toContainText(['  const words = query.split(/\\s+/)'])
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

test.describe('a branch compared with its parent', () => {
  test('from the branch’s header: the files each left differently after the same turn, with their diffs', async ({ page, server, consoleErrors }, testInfo) => {
    const workspace = await openDemo(page, server.url)
    await workspace.openSession(BRANCH)
    await (await workspace.sessionAction('open-compare-parent')).click()
    const dialog = page.getByTestId('compare-dialog')
    await expect(dialog.getByRole('heading', { name: 'Compare with parent' })).toBeVisible()
    await expect(dialog.getByTestId('compare-parent-side')).toHaveText(`From ${PARENT} after turn 2`)
    await expect(dialog.getByTestId('compare-turn')).toHaveValue('2')
    await expectSearchDiff(dialog)
    await snapshot(page, testInfo, '140-compare-with-parent')
    await page.emulateMedia({ colorScheme: 'dark' })
    await snapshot(page, testInfo, '140-compare-with-parent-dark')
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
    // Focus is back on the menu the dialog was opened from.
    await expect(workspace.sessionMenu.locator('summary')).toBeFocused()

    // A main session has no parent to compare with: the menu does not offer it.
    await workspace.openSession(PARENT)
    await expect(await workspace.sessionAction('open-compare')).toBeVisible()
    await expect(workspace.sessionMenu.getByTestId('open-compare-parent')).toHaveCount(0)
    expect(consoleErrors).toEqual([])
  })

  test('from the graph: the selected card’s action, for a branch and for a sub-agent', async ({ page, server, consoleErrors }, testInfo) => {
    await page.setViewportSize({ width: 1024, height: 700 })
    await page.emulateMedia({ colorScheme: 'dark' })
    await openDemo(page, server.url)
    const tree = new SessionTreeView(page)
    await tree.open()
    // Nothing selected: no card offers actions.
    await expect(page.getByTestId('tree-compare-parent')).toHaveCount(0)
    await tree.node(BRANCH).click()
    const compare = page.getByTestId('tree-compare-parent')
    await expect(compare).toHaveCount(1)
    await expect(compare).toBeVisible()
    await snapshot(page, testInfo, '141-graph-card-compare-dark-1024')
    await compare.click()
    const dialog = page.getByTestId('compare-dialog')
    await expectSearchDiff(dialog)
    await snapshot(page, testInfo, '142-graph-compare-with-parent-dark-1024')
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect(dialog).toHaveCount(0)

    // The sub-agent only read files: nothing differs from its parent after the turn that started it.
    await tree.node(SUB_AGENT).click()
    await page.getByTestId('tree-compare-parent').click()
    await expect(dialog.getByTestId('compare-parent-side')).toHaveText(`From ${PARENT} after turn 1, the turn that started it`)
    await expect(dialog.getByTestId('compare-nothing')).toHaveText('The sub-agent left every file as its parent did after turn 1, the turn that started it.')
    await page.keyboard.press('Escape')

    // A main session's card offers nothing.
    await tree.node(PARENT).click()
    await expect(page.getByTestId('tree-compare-parent')).toHaveCount(0)
    expect(consoleErrors).toEqual([])
  })

  test('the fork edge says “from turn N”, clear of every card, at 1280 and 1024 px', async ({ page, server, consoleErrors }, testInfo) => {
    await openDemo(page, server.url)
    const tree = new SessionTreeView(page)
    await tree.open()
    for (const [width, height, theme] of [[1280, 800, 'light'], [1024, 700, 'dark']] as const) {
      await page.setViewportSize({ width, height })
      await page.emulateMedia({ colorScheme: theme })
      await tree.node(BRANCH).click() // the transcript opens beside the graph: the narrowest graph
      await tree.fitView.click()
      const label = tree.edges('fork').locator('.react-flow__edge-text')
      await expect(label).toHaveText('from turn 2')
      await expect.poll(() => tree.cardsOutsideView()).toEqual([])
      const labelBox = await label.boundingBox()
      expect(labelBox).not.toBeNull()
      for (const card of await tree.nodes.all()) {
        const box = await card.boundingBox()
        if (labelBox && box) expect(overlaps(labelBox, box), `the label overlaps ${await card.getAttribute('data-session-id')}`).toBe(false)
      }
      await snapshot(page, testInfo, `143-fork-edge-label-${width}-${theme}`)
    }
    expect(consoleErrors).toEqual([])
  })
})
