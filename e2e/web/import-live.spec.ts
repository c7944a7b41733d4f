import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, snapshot, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'
import { ClaudeHome } from '../../src/main/sources/testing/claude-home'

/** A shop folder and a Claude Code home holding one session of it, which the test writes on. */
function shopSession(prefix: string) {
  const root = mkdtempSync(join(tmpdir(), prefix))
  const workspace = join(root, 'shop')
  const home = new ClaudeHome(join(root, 'claude'))
  mkdirSync(workspace)
  return { root, workspace, home, session: home.session(workspace) }
}

test.describe('agent histories', () => {
  test('opening a folder imports its Claude Code session, and a running agent\'s new lines appear live', async ({ page, consoleErrors }, testInfo) => {
    const { root, workspace, home, session } = shopSession('retrace-e2e-import-')
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

  test('a rewind inside Claude Code while the window follows the session shows up live as a branch', async ({ page, consoleErrors }, testInfo) => {
    const { root, workspace, home, session } = shopSession('retrace-e2e-rewind-')
    session.prompt('Add a README for the shop')
    const endOfTurn1 = session.say('I added README.md with a title.')
    session.prompt('Now translate it to French')
    session.say('Voilà: README.md est en français.')
    const server = await startRetraceServer([], { CLAUDE_CONFIG_DIR: home.root })
    try {
      const first = new FirstScreen(page)
      await first.goto(server.url)
      await first.openPath(workspace)
      const view = new WorkspaceView(page)
      await view.openSession('Add a README for the shop')
      await expect(view.transcript.getByText('Voilà: README.md est en français.')).toBeVisible()

      // Esc Esc in Claude Code: the next prompt hangs below the end of turn 1.
      session.rewindTo(endOfTurn1)
      session.prompt('Actually, translate it to German')
      session.say('Fertig: README.md ist auf Deutsch.')
      await expect(view.transcript.getByText('Fertig: README.md ist auf Deutsch.')).toBeVisible({ timeout: 5000 })
      await expect(view.transcript.getByText('Voilà: README.md est en français.')).toHaveCount(0)
      const branch = view.session('Now translate it to French')
      await expect(branch.getByTestId('rewound-in-agent')).toHaveText('rewound in Claude Code')
      await snapshot(page, testInfo, 'claude-code-rewind-live')
      await view.openSession('Now translate it to French')
      await expect(view.transcript.getByText('Voilà: README.md est en français.')).toBeVisible()
      expect(consoleErrors).toEqual([])
    } finally {
      await server.stop()
      rmSync(root, { recursive: true, force: true })
    }
  })
})
