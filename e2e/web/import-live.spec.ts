import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, snapshot, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'
import { ClaudeHome } from '../../src/main/sources/testing/claude-home'

test.describe('agent histories', () => {
  test('opening a folder imports its Claude Code session, and a running agent\'s new lines appear live', async ({ page, consoleErrors }, testInfo) => {
    const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-import-'))
    const workspace = join(root, 'shop')
    const home = new ClaudeHome(join(root, 'claude'))
    mkdirSync(workspace)
    const session = home.session(workspace)
    session.prompt('Add a README for the shop')
    session.write('README.md', '# Shop\n', null)
    session.say('I added README.md with a title.')
    const server = await startRetraceServer([], { CLAUDE_CONFIG_DIR: home.root })
    try {
      const first = new FirstScreen(page)
      await first.goto(server.url)
      await first.openPath(workspace)
      const view = new WorkspaceView(page)
      await expect(view.session('Add a README for the shop'), `server output:\n${server.output()}`).toBeVisible()
      await view.openSession('Add a README for the shop')
      await expect(view.transcript.getByText('I added README.md with a title.')).toBeVisible()

      const written = Date.now()
      session.say('Now adding a licence file while you watch.')
      await expect(view.transcript.getByText('Now adding a licence file while you watch.')).toBeVisible({ timeout: 3000 })
      testInfo.annotations.push({ type: 'live line shown after', description: `${Date.now() - written} ms` })
      console.log(`live import: the new line was on screen ${Date.now() - written} ms after it was written`)
      await snapshot(page, testInfo, 'claude-code-import-live')
      expect(consoleErrors).toEqual([])
    } finally {
      await server.stop()
      rmSync(root, { recursive: true, force: true })
    }
  })
})
