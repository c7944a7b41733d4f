import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, snapshot, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'
import { ClaudeHome, FIXTURES } from '../../src/main/sources/testing/claude-home'

// A real Claude Code session (fixtures/claude-code/spotter) whose file Claude Code's clean-up
// deletes while Retrace runs: the session stays, marked; the window says how long Claude Code
// keeps its history, and offers to keep it longer (written only on confirmation, undoable).
const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04'
const RECORDED_CWD = '/home/USER/projects/spotter-worktrees/spotter-4te'

test('a session whose file Claude Code deleted stays, marked; the retention notice changes the setting and undoes it', async ({ page, consoleErrors }, testInfo) => {
  const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-keep-'))
  const project = join(root, 'project')
  mkdirSync(project)
  const home = new ClaudeHome(join(root, 'claude'))
  const workspace = realpathSync(project)
  const folder = home.addFixtureProject(join(FIXTURES, 'claude-code/spotter/projects-dir'), workspace)
  // Recorded in the project: Claude Code matches a session to a folder by the cwd inside it.
  const file = join(folder, `${SESSION}.jsonl`)
  writeFileSync(file, readFileSync(file, 'utf8').replaceAll(RECORDED_CWD, workspace))
  const settings = join(home.root, 'settings.json')
  const server = await startRetraceServer([], { CLAUDE_CONFIG_DIR: home.root, RETRACE_BACKGROUND_IMPORT: '1', RETRACE_BACKGROUND_IMPORT_INTERVAL_MS: '300' })
  try {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openPath(project)
    const view = new WorkspaceView(page)
    await view.root.waitFor()
    await expect(view.sessionRows.first(), `server output:\n${server.output()}`).toBeVisible()
    const notice = page.getByTestId('retention-notice')
    await expect(notice).toContainText('30 days')

    // Claude Code's clean-up deletes the file; the next background round finds it gone.
    renameSync(file, join(root, 'aside.jsonl'))
    await expect(page.getByTestId('source-deleted-badge').first()).toBeVisible({ timeout: 15_000 })
    await expect(view.sessionRows.first()).toBeVisible()
    await snapshot(page, testInfo, '90-source-deleted')

    await notice.getByTestId('retention-set-open').click()
    await page.getByTestId('retention-set-dialog').getByTestId('retention-set-confirm').click()
    await expect.poll(() => (existsSync(settings) ? (JSON.parse(readFileSync(settings, 'utf8')) as { cleanupPeriodDays?: number }).cleanupPeriodDays : null)).toBe(365)
    await expect(notice.getByTestId('retention-undo')).toBeVisible()
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.setViewportSize({ width: 1024, height: 700 })
    await snapshot(page, testInfo, '91-retention-changed-dark-1024')
    await notice.getByTestId('retention-undo').click()
    // There was no settings file before: undoing removes the one Retrace wrote.
    await expect.poll(() => existsSync(settings)).toBe(false)
    expect(consoleErrors).toEqual([])
  } finally {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
})

// A Claude Code session file cut short while Retrace runs (an older copy restored, a sync tool):
// every message stays, and the transcript says which ones the agent's file no longer holds (R31).
test('a session whose file was cut short keeps every message; the transcript marks what the file no longer holds', async ({ page, consoleErrors }, testInfo) => {
  const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-shrunk-'))
  const project = join(root, 'project')
  mkdirSync(project)
  const home = new ClaudeHome(join(root, 'claude'))
  const session = home.session(realpathSync(project))
  session.prompt('Why does the nightly export skip the archived rows?')
  session.say('The export query filters on `archived_at IS NULL`; archived rows never reach it.')
  session.prompt('Make it include them behind a flag.')
  session.say('Added `--include-archived` to the export command, off by default.')
  const kept = statSync(session.path).size
  session.prompt('Now document the flag in the README.')
  session.say('Documented `--include-archived` under "Exporting", with an example.')
  session.prompt('Add a test for it.')
  session.say('Added `export includes archived rows with the flag` to export.test.ts.')
  const server = await startRetraceServer([], { CLAUDE_CONFIG_DIR: home.root, RETRACE_BACKGROUND_IMPORT: '1', RETRACE_BACKGROUND_IMPORT_INTERVAL_MS: '300' })
  try {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openPath(project)
    const view = new WorkspaceView(page)
    await view.root.waitFor()
    await view.openSession('Why does the nightly export')
    await expect(view.transcript.getByText('Add a test for it.'), `server output:\n${server.output()}`).toBeVisible()
    await expect(view.transcript.getByTestId('not-in-file-note')).toHaveCount(0)

    // Back to the copy of two turns ago: the file now holds the first two turns only.
    truncateSync(session.path, kept)
    const note = view.transcript.getByTestId('not-in-file-note')
    await expect(note).toHaveCount(1, { timeout: 15_000 })
    await expect(note).toContainText('The agent’s file no longer holds these messages')
    await expect(view.transcript.locator('.not-in-file')).toHaveCount(4)
    await expect(view.transcript.getByText('Add a test for it.')).toBeVisible()
    await expect(view.transcript.getByText('Make it include them behind a flag.')).toBeVisible()
    await snapshot(page, testInfo, '92-not-in-file-light')
    await page.emulateMedia({ colorScheme: 'dark' })
    await snapshot(page, testInfo, '93-not-in-file-dark')
    await page.setViewportSize({ width: 1024, height: 700 })
    await snapshot(page, testInfo, '94-not-in-file-dark-1024')
    expect(consoleErrors).toEqual([])
  } finally {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
})
