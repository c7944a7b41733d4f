import { expect, snapshot, test } from '../support/fixtures'
import { agentFolder } from '../support/agent-folder'
import { SessionTreeView } from '../pages/session-tree'

// The seed systems' fixtures (fixtures/{headless-agent,code-buddy,y-agent}, each built from its
// seed document): opening the agent's own folder shows its sessions in the same views as any other.
const CASES = [
  { name: 'headless agent', fixture: 'headless-agent/home', sessions: 4, open: 'release-notes', shot: '85-headless-agent' },
  { name: 'Code Buddy', fixture: 'code-buddy/home', sessions: 9, open: null, shot: '86-code-buddy' },
  { name: 'y-agent', fixture: 'y-agent/data', sessions: 9, open: 'Add retry with backoff to the HTTP client', shot: '87-y-agent' }
] as const

for (const item of CASES) {
  test(`the ${item.name}'s folder opened as a workspace: its sessions listed, a transcript, the graph`, async ({ page, consoleErrors }, testInfo) => {
    const agent = await agentFolder(item.fixture)
    try {
      const view = await agent.open(page)
      await expect(view.sessionRows, `server output:\n${agent.server.output()}`).toHaveCount(item.sessions)
      if (item.open) await view.openSession(item.open)
      else await view.sessionRows.first().click()
      await expect(view.transcript.getByTestId('turn-header').first()).toBeVisible()
      await snapshot(page, testInfo, `${item.shot}-transcript`)
      const tree = new SessionTreeView(page)
      await tree.open()
      await expect(tree.nodes).toHaveCount(item.sessions)
      await snapshot(page, testInfo, `${item.shot}-graph`)
      expect(consoleErrors).toEqual([])
    } finally {
      await agent.dispose()
    }
  })
}
