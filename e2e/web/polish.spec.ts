import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { ClaudeHome } from '../../src/main/sources/testing/claude-home'
import { copiedHistories } from '../../src/main/sources/testing/copied-histories'
import { agentFolder } from '../support/agent-folder'
import { expect, snapshot, test } from '../support/fixtures'
import type { RunningServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { SessionTreeView } from '../pages/session-tree'
import { WorkspaceView } from '../pages/workspace-view'

// Issue 28's polish: Rewind only where there is something to rewind, an undo worded as what it
// undoes, no raw ids, the graph's minimap off the cards at 1024 px, and a copied ~/.claude added
// from Sources importing only this workspace's sessions here.

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/

async function rpc<T>(server: RunningServer, method: string, input: unknown): Promise<T> {
  const response = await fetch(`${server.origin}/api/rpc/${method}`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Retrace-Token': server.token }, body: JSON.stringify(input) })
  const reply = (await response.json()) as { ok: true; data: T } | { ok: false; error: { message: string } }
  if (!reply.ok) throw new Error(`${method}: ${reply.error.message}`)
  return reply.data
}

async function openDemo(page: Page, url: string): Promise<WorkspaceView> {
  const first = new FirstScreen(page)
  await first.goto(url)
  await first.openDemo()
  const workspace = new WorkspaceView(page)
  await expect(workspace.root).toBeVisible()
  return workspace
}

type Summary = { id: string; title: string; turnCount: number; kind: string }

/** A demo session with turns after its last file change (their Rewind has nothing to do), and a turn that changed a file. */
async function sessionWithQuietTurns(server: RunningServer): Promise<{ title: string; changed: number; quiet: number }> {
  const listed = await rpc<{ items: { path: string; workspaceId: number | null }[] }>(server, 'workspaces.listAll', {})
  const demo = listed.items.find((item) => item.path.endsWith('demo-workspace'))
  const sessions = await rpc<{ items: Summary[] }>(server, 'sessions.list', { workspaceId: demo?.workspaceId })
  for (const session of sessions.items) {
    const detail = await rpc<{ lastChangedTurn: number | null; turnCount: number }>(server, 'sessions.get', { sessionId: session.id })
    if (session.kind === 'main' && detail.lastChangedTurn !== null && detail.lastChangedTurn < detail.turnCount) return { title: session.title, changed: detail.lastChangedTurn, quiet: detail.turnCount }
  }
  throw new Error('No demo session has a turn after its last file change.')
}

type Box = { x: number; y: number; width: number; height: number }
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && a.x + a.width > b.x && a.y < b.y + b.height && a.y + a.height > b.y

const turnHeader = (workspace: WorkspaceView, turn: number) => workspace.transcript.locator(`[data-testid="turn-header"][data-turn="${turn}"]`)

test('Rewind is disabled where nothing follows; the result and the undo name no id and no agent', async ({ page, server, consoleErrors }, testInfo) => {
  const { title, changed, quiet } = await sessionWithQuietTurns(server)
  const workspace = await openDemo(page, server.url)
  await workspace.openSession(title)

  const quietRewind = turnHeader(workspace, quiet).getByTestId('turn-rewind')
  await quietRewind.scrollIntoViewIfNeeded()
  await expect(quietRewind).toBeDisabled()
  await expect(quietRewind).toHaveAttribute('title', new RegExp(`^Nothing to rewind: no file change was journaled in turn ${quiet} or after it`))
  const rewind = turnHeader(workspace, changed).getByTestId('turn-rewind')
  await rewind.scrollIntoViewIfNeeded()
  await expect(rewind).toBeEnabled()
  await turnHeader(workspace, quiet).hover()
  await snapshot(page, testInfo, '90-polish-rewind-disabled')
  // Forking there: no files to rewind with it either.
  await turnHeader(workspace, quiet).getByTestId('turn-fork').click()
  const fork = page.getByTestId('fork-dialog')
  await expect(fork.getByTestId('fork-with-files')).toBeDisabled()
  await expect(fork).toContainText('Also rewind files to before this turn (nothing to rewind)')
  await page.keyboard.press('Escape')
  await expect(fork).toHaveCount(0)

  await rewind.click()
  const dialog = page.getByTestId('rewind-dialog')
  await dialog.getByTestId('rewind-apply').click()
  const result = dialog.getByTestId('rewind-result')
  await expect(result).toContainText(`where it is the newest entry, “Files back to before turn ${changed}”`)
  expect(await result.innerText()).not.toMatch(UUID)
  // The count beside each list is the number of rows in it.
  const changedCount = Number((await result.getByTestId('result-changed').innerText()).split(' ')[0])
  await expect(result.getByRole('region', { name: 'Changed' }).getByTestId('result-item')).toHaveCount(changedCount)
  await snapshot(page, testInfo, '91-polish-rewind-result')

  await dialog.getByTestId('rewind-undo').click()
  await expect(dialog.getByRole('heading', { name: 'Undo a rewind' })).toBeVisible()
  await expect(dialog.getByTestId('plan-item').first()).toBeVisible()
  const undoText = await dialog.innerText()
  expect(undoText).toContain('Puts back the files this rewind replaced')
  expect(undoText).not.toMatch(/the agent (made|created|changed)|Changed by the agent/)
  expect(undoText).not.toMatch(UUID)
  await snapshot(page, testInfo, '92-polish-undo-preview')
  expect(consoleErrors).toEqual([])
})

test('dark, 1024 px: the graph fits above its minimap, which sits on no card', async ({ page, server, consoleErrors }, testInfo) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.setViewportSize({ width: 1024, height: 700 })
  const workspace = await openDemo(page, server.url)
  const tree = new SessionTreeView(page)
  await tree.open()
  await expect(tree.minimap).toBeVisible()
  for (const open of [false, true]) {
    if (open) {
      await tree.node((await sessionWithQuietTurns(server)).title).click()
      await expect(workspace.transcript).toBeVisible()
    }
    await expect(tree.nodes.first()).toBeVisible()
    // Let the fit settle after the pane changed size.
    await page.waitForTimeout(400)
    const cards = await tree.nodes.evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect().toJSON() as Box))
    expect(cards.length).toBeGreaterThan(0)
    // Neither the minimap, nor the zoom controls, nor the toolbar and legend sit on a card; beside
    // an open transcript the pane is narrow, and the graph goes without its minimap.
    if (open) await expect(tree.minimap).toHaveCount(0)
    const overlays = [
      ...(open ? [] : [['minimap', tree.minimap] as const]),
      ['zoom controls', tree.root.locator('.react-flow__controls')] as const,
      ['toolbar', tree.root.locator('.tree-toolbar')] as const
    ]
    for (const [name, overlay] of overlays) {
      const box = await overlay.boundingBox()
      expect(box, name).not.toBeNull()
      const under = cards.filter((card) => box !== null && overlaps(card, box))
      expect(under, `cards under the ${name} with the transcript ${open ? 'open' : 'closed'}`).toEqual([])
    }
    await snapshot(page, testInfo, open ? '94-polish-graph-dark-1024-transcript' : '93-polish-graph-dark-1024')
  }
  expect(consoleErrors).toEqual([])
})

for (const dark of [false, true]) {
  test(`Sources${dark ? ' (dark, 1024 px)' : ''}: a copied ~/.claude imports this workspace's sessions here, the others into their own workspaces`, async ({ page, consoleErrors }, testInfo) => {
    if (dark) {
      await page.emulateMedia({ colorScheme: 'dark' })
      await page.setViewportSize({ width: 1024, height: 700 })
    }
    const agent = await agentFolder(null, 'project')
    try {
      // Real histories of two other folders (3 sessions each), and one session of this project.
      const copy = copiedHistories(join(agent.root, 'copied')).claude
      const session = new ClaudeHome(copy).session(agent.folder)
      session.prompt('Find the zebracorn in this project')
      session.say('The zebracorn is in src/.')
      // An Edit as older versions wrote it (no original content) of a file no backup holds: its line imports, its change cannot be journaled.
      session.edit('notes.txt', 'alpha\nbeta\n', 'beta', 'BETA', false)
      const view = await agent.open(page)
      await page.getByTestId('workspace-menu').locator('summary').click()
      await page.getByTestId('workspace-menu').getByTestId('sources-open').click()
      const dialog = page.getByTestId('sources-dialog')
      await dialog.getByTestId('source-folder-source').selectOption('claude-code')
      await dialog.getByTestId('source-folder-path').fill(copy)
      await dialog.getByTestId('source-folder-add').click()
      await expect(dialog.getByTestId('source-folder-report')).toHaveText(new RegExp(`^Imported from ${copy}: 1 session here \\(\\d+ messages\\), 6 into 2 other workspaces\\. 1 file change not journaled\\.$`))
      await dialog.getByTestId('source-folder-report').scrollIntoViewIfNeeded()
      await snapshot(page, testInfo, dark ? '96-polish-sources-dark-1024' : '95-polish-sources')
      await dialog.getByTestId('sources-close').click()
      await expect(view.sessionRows).toHaveCount(1)

      // The change that could not be journaled is counted apart: no line was skipped.
      const status = view.root.getByTestId('import-status')
      await expect(status.getByTestId('import-not-journaled-details')).toHaveText('1 change not journaled')
      await expect(status.getByTestId('import-skipped-details')).toHaveCount(0)
      await status.getByTestId('import-not-journaled-details').click()
      const changes = page.getByTestId('not-journaled-changes')
      await expect(changes.getByRole('heading', { name: 'File changes not journaled (1)' })).toBeVisible()
      await expect(changes.getByTestId('skipped-line')).toHaveCount(1)
      await expect(changes.getByTestId('skipped-line')).toContainText('file change not captured (its earlier content is unknown)')
      await snapshot(page, testInfo, dark ? '98-polish-not-journaled-dark-1024' : '97-polish-not-journaled')
      await changes.getByRole('button', { name: 'Close' }).last().click()

      // Found once, though the session's file is in the copy only.
      await view.globalSearch.fill('zebracorn')
      await expect(view.searchResults).toHaveCount(2)
      expect(consoleErrors).toEqual([])
    } finally {
      await agent.dispose()
    }
  })
}
