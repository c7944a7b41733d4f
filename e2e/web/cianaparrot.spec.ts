import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, snapshot, test } from '../support/fixtures'
import { agentFolder } from '../support/agent-folder'
import { SessionTreeView } from '../pages/session-tree'

// The CianaParrot deployment fixture (fixtures/cianaparrot, built from seeds 000/003): opening
// the deployment folder shows its conversations as a tree and its agent state in a panel.
test('a CianaParrot deployment: threads in the graph with resets and time travel, and the agent state panel', async ({ page, consoleErrors }, testInfo) => {
  const agent = await agentFolder('cianaparrot/deployment', 'cianaparrot')
  try {
    const view = await agent.open(page)
    await expect(view.sessionRows, `server output:\n${agent.server.output()}`).toHaveCount(7)
    await view.openSession('Scheduled: Send Luca a weather briefing')
    await expect(view.transcript.getByTestId('tool-call').first()).toBeVisible()
    await snapshot(page, testInfo, '81-cianaparrot-scheduled-run')

    const tree = new SessionTreeView(page)
    await tree.open()
    await expect(tree.nodes).toHaveCount(7)
    await expect(tree.edges('successor')).toHaveCount(2)
    await expect(tree.edges('fork')).toHaveCount(1)
    await snapshot(page, testInfo, '82-cianaparrot-graph')

    await page.getByTestId('agent-state-open').click()
    const panel = page.getByTestId('agent-state')
    await expect(panel.getByTestId('agent-state-section')).toHaveCount(6)
    await expect(panel.getByRole('table').first()).toContainText('0 8 * * 1')
    await panel.getByText('workspace/MEMORY.md').click()
    await snapshot(page, testInfo, '83-cianaparrot-agent-state')
    // Searchable: only what matches stays.
    await panel.getByTestId('agent-state-filter').fill('dentist')
    await expect(panel.getByTestId('agent-state-section')).toHaveCount(1)
    await expect(panel.getByRole('row')).toHaveCount(2)
    expect(consoleErrors).toEqual([])
  } finally {
    await agent.dispose()
  }
})

test('a deployment kept elsewhere, added to a workspace as a source folder from the Sources dialog', async ({ page, consoleErrors }, testInfo) => {
  // The deployment is the copy; the workspace opened is an empty project folder beside it.
  const agent = await agentFolder('cianaparrot/deployment', 'cianaparrot')
  const deployment = agent.folder
  const project = join(agent.root, 'project')
  try {
    mkdirSync(project)
    const view = await agent.open(page, project)
    await page.getByTestId('workspace-menu').locator('summary').click()
    await page.getByTestId('workspace-menu').getByTestId('sources-open').click()
    const dialog = page.getByTestId('sources-dialog')
    await expect(dialog.getByTestId('sources-table')).toContainText('CianaParrot')
    // Every source, those read only from their format's description said to be so.
    await expect(dialog.getByTestId('sources-table').locator('tbody tr')).toHaveCount(13)
    await expect(dialog.getByTestId('sources-table').locator('tr', { hasText: 'Copilot CLI' })).toContainText('not yet tested on files it wrote')
    await expect(dialog.getByTestId('sources-table').locator('tr', { hasText: 'Aider' })).not.toContainText('not yet tested')
    await dialog.getByTestId('source-folder-source').selectOption('cianaparrot')
    await dialog.getByTestId('source-folder-path').fill(deployment)
    await dialog.getByTestId('source-folder-add').click()
    await expect(dialog.getByTestId('source-folder-report')).toContainText('7 sessions here')
    await expect(dialog.getByTestId('source-folder')).toContainText(deployment)
    await snapshot(page, testInfo, '84-sources-dialog')
    await dialog.getByTestId('sources-close').click()
    await expect(dialog).toHaveCount(0)
    await expect(view.sessionRows).toHaveCount(7)
    expect(consoleErrors).toEqual([])
  } finally {
    await agent.dispose()
  }
})
