import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, snapshot, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'
import { FIXTURES } from '../../src/main/sources/testing/claude-home'

// A Claude Code session (fixtures/claude-code/claude-code-log-workflow, with its three workflow
// agents) that ran in a subfolder of the folder opened: stored under the subfolder (R59), listed
// in the folder's view with the subfolder's name on the row.
const SESSION = '11110000-0000-4000-8000-000000000001'

function moveRecordedCwd(folder: string, cwd: string): void {
  for (const name of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    const path = join(folder, name)
    if (name.endsWith('.jsonl') && statSync(path).isFile()) writeFileSync(path, readFileSync(path, 'utf8').replaceAll('"cwd": "/repo"', `"cwd": ${JSON.stringify(cwd)}`))
  }
}

test("a subfolder's session in the folder's list: once, with the subfolder on its row", async ({ page, consoleErrors }, testInfo) => {
  const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-subfolder-'))
  const project = join(root, 'project')
  mkdirSync(join(project, 'packages', 'api'), { recursive: true })
  const ranIn = join(realpathSync(project), 'packages', 'api')
  const sessions = join(root, 'claude', 'projects', ranIn.replace(/[^A-Za-z0-9]/g, '-'))
  mkdirSync(sessions, { recursive: true })
  const fixture = join(FIXTURES, 'claude-code', 'claude-code-log-workflow')
  cpSync(join(fixture, `${SESSION}.jsonl`), join(sessions, `${SESSION}.jsonl`))
  cpSync(join(fixture, SESSION), join(sessions, SESSION), { recursive: true })
  moveRecordedCwd(sessions, ranIn)
  const server = await startRetraceServer([], { CLAUDE_CONFIG_DIR: join(root, 'claude') })
  try {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openPath(project)
    const view = new WorkspaceView(page)
    await view.root.waitFor()
    const labels = view.sessionRows.getByTestId('session-folder')
    await expect(labels.first(), `server output:\n${server.output()}`).toHaveText('packages/api/')
    // The session and its three agents, each once; the label on the session's row (the agents sit below it).
    await expect(view.sessionRows).toHaveCount(4)
    await expect(labels).toHaveCount(1)
    await view.sessionRows.first().click()
    await view.transcript.waitFor()
    await snapshot(page, testInfo, 'one-row-subfolder-sessions')
    await page.emulateMedia({ colorScheme: 'dark' })
    await snapshot(page, testInfo, 'one-row-subfolder-sessions-dark')
    await page.setViewportSize({ width: 1024, height: 700 })
    await expect(labels.first()).toBeVisible()
    await snapshot(page, testInfo, 'one-row-subfolder-sessions-dark-1024')
    expect(consoleErrors).toEqual([])
  } finally {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
})
