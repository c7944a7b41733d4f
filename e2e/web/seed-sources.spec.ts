import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, snapshot, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { SessionTreeView } from '../pages/session-tree'
import { WorkspaceView } from '../pages/workspace-view'
import { FIXTURES } from '../../src/main/sources/testing/claude-home'

// The seed systems' fixtures (fixtures/{headless-agent,code-buddy,y-agent}, each built from its
// seed document): opening the agent's own folder shows its sessions in the same views as any other.
const CASES = [
  { name: 'headless agent', fixture: 'headless-agent/home', sessions: 4, open: 'release-notes', shot: '85-headless-agent' },
  { name: 'Code Buddy', fixture: 'code-buddy/home', sessions: 9, open: null, shot: '86-code-buddy' },
  { name: 'y-agent', fixture: 'y-agent/data', sessions: 9, open: 'Add retry with backoff to the HTTP client', shot: '87-y-agent' }
] as const

for (const item of CASES) {
  test(`the ${item.name}'s folder opened as a workspace: its sessions listed, a transcript, the graph`, async ({ page, consoleErrors }, testInfo) => {
    const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-seed-'))
    const folder = join(root, 'agent')
    cpSync(join(FIXTURES, item.fixture), folder, { recursive: true })
    const server = await startRetraceServer([])
    try {
      const first = new FirstScreen(page)
      await first.goto(server.url)
      await first.openPath(folder)
      const view = new WorkspaceView(page)
      await expect(view.root).toBeVisible()
      await expect(view.sessionRows, `server output:\n${server.output()}`).toHaveCount(item.sessions)
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
      await server.stop()
      rmSync(root, { recursive: true, force: true })
    }
  })
}
