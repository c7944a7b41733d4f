import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, snapshot, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'
import { FIXTURES } from '../../src/main/sources/testing/claude-home'

// Real projects of claude-code-log's author (fixtures/claude-code/claude-code-log/PROVENANCE.txt):
// coderabbit-review-helper has 39 sessions, warm-ups and untitled ones among them.
const PROJECT = join(FIXTURES, 'claude-code', 'claude-code-log', '-Users-dain-workspace-coderabbit-review-helper')
const RECORDED_CWD = '/Users/dain/workspace/coderabbit-review-helper'
const PARENT_TITLE = 'How can I make this possible to install as a library'
/** Its one real Explore agent, copied under new agent ids: a session with many sub-sessions. */
const AGENT = 'ea02459f'
const COPIES = 40

/** A Claude Code config folder with the project, moved to a temp workspace, and `COPIES` more agents of its main session. */
function history(root: string): { project: string; claude: string } {
  const project = join(root, 'project')
  mkdirSync(project)
  const workspaceDir = realpathSync(project)
  const sessions = join(root, 'claude', 'projects', workspaceDir.replace(/[^A-Za-z0-9]/g, '-'))
  mkdirSync(sessions, { recursive: true })
  cpSync(PROJECT, sessions, { recursive: true })
  for (const name of readdirSync(sessions, { recursive: true, encoding: 'utf8' })) {
    const path = join(sessions, name)
    if (name.endsWith('.jsonl') && statSync(path).isFile()) writeFileSync(path, readFileSync(path, 'utf8').replaceAll(`"cwd":"${RECORDED_CWD}`, `"cwd":"${workspaceDir}`))
  }
  const agent = readFileSync(join(sessions, `agent-${AGENT}.jsonl`), 'utf8')
  for (let copy = 0; copy < COPIES; copy++) {
    const id = `c0${String(copy).padStart(6, '0')}`
    // New agent id and message uuids (the first 8 hex digits of each), as another run of the same agent.
    const text = agent.replaceAll(AGENT, id).replace(/"uuid":"([0-9a-f]{8})/g, `"uuid":"${id}`).replace(/"parentUuid":"([0-9a-f]{8})/g, `"parentUuid":"${id}`)
    writeFileSync(join(sessions, `agent-${id}.jsonl`), text)
  }
  return { project, claude: join(root, 'claude') }
}

test.describe('the session list and the transcript header', () => {
  test('groups sessions by day, labels untitled ones by what they did, keeps the header one row with 40 sub-sessions', async ({ page, consoleErrors }, testInfo) => {
    const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-list-'))
    const { project, claude } = history(root)
    const server = await startRetraceServer([], { CLAUDE_CONFIG_DIR: claude })
    try {
      await page.setViewportSize({ width: 1024, height: 720 })
      const first = new FirstScreen(page)
      await first.goto(server.url)
      await first.openPath(project)
      const workspace = new WorkspaceView(page)
      await workspace.root.waitFor()
      await expect(workspace.session(PARENT_TITLE), `server output:\n${server.output()}`).toHaveCount(1)

      // Day headers: the list's first line is one, and every header counts sessions under it.
      const list = page.getByTestId('session-list')
      const days = list.getByTestId('session-day')
      await expect(days.first()).toBeVisible()
      const firstLine = list.locator('.virtual-row').first()
      await expect(firstLine.getByTestId('session-day')).toHaveCount(1)
      for (const count of await days.locator('.session-day-count').allTextContents()) expect(Number(count)).toBeGreaterThan(0)

      // Warm-ups shown: those without a prompt are labelled "Warm-up", marked as derived.
      await page.getByTestId('warmup-toggle').click()
      await expect(list.locator('[data-title-origin="derived"]').first()).toHaveText('Warm-up')
      await expect(list.getByText('Empty session')).toHaveCount(0)
      await snapshot(page, testInfo, 'list-1024')
      await page.emulateMedia({ colorScheme: 'dark' })
      await snapshot(page, testInfo, 'list-1024-dark')
      await page.emulateMedia({ colorScheme: 'light' })
      await page.getByTestId('warmup-toggle').click()

      // Keyboard: Down moves, the selection opens its transcript.
      await list.focus()
      await page.keyboard.press('Home')
      const selected = list.locator('[role="option"][aria-selected="true"]')
      await expect(selected).toHaveCount(1)
      const firstId = await selected.getAttribute('data-session-id')
      await page.keyboard.press('ArrowDown')
      await expect(selected).not.toHaveAttribute('data-session-id', firstId ?? '')

      await workspace.openSession(PARENT_TITLE)
      const menu = page.getByTestId('sub-sessions-menu')
      await expect(menu.locator('summary')).toContainText(String(COPIES + 3))
      const links = page.getByTestId('session-links')
      const lineHeight = (await links.boundingBox())?.height ?? 0
      expect(lineHeight).toBeGreaterThan(0)
      expect(lineHeight).toBeLessThanOrEqual(30)
      // Title, the controls below it at 1024 px, the facts (two lines here) and the links' one line.
      const header = await page.locator('.transcript-header').boundingBox()
      expect(header?.height ?? 0).toBeLessThanOrEqual(200)
      await snapshot(page, testInfo, 'header-1024')
      await menu.locator('summary').click()
      await expect(menu.getByTestId('session-link')).toHaveCount(COPIES + 3)
      await snapshot(page, testInfo, 'header-menu-1024')
      await page.emulateMedia({ colorScheme: 'dark' })
      await snapshot(page, testInfo, 'header-menu-1024-dark')
      expect(consoleErrors).toEqual([])
    } finally {
      await server.stop()
      rmSync(root, { recursive: true, force: true })
    }
  })
})
