import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, snapshot, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'
import { FIXTURES } from '../../src/main/sources/testing/claude-home'

// A real Codex 0.125.0 rollout (fixtures/codex/codemie) with records of a kind no Codex writes
// yet, as the next format change would bring: the session imports, and the Sources dialog says
// how many records were not read, by agent and version, instead of losing them silently.
const ROLLOUT = 'rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl'

test('records of a kind Retrace does not read are counted in the Sources dialog, by agent version', async ({ page, consoleErrors }, testInfo) => {
  const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-unread-'))
  const project = join(root, 'project')
  mkdirSync(project)
  const day = join(root, 'codex', 'sessions', '2026', '05', '11')
  mkdirSync(day, { recursive: true })
  const rollout = join(day, ROLLOUT)
  const real = readFileSync(join(FIXTURES, 'codex', 'codemie', 'sessions', '2026', '05', '11', ROLLOUT), 'utf8')
  writeFileSync(rollout, real.replaceAll('/Users/Sample_User/repos/codemie-ai/codemie-code', realpathSync(project)))
  const line = `${JSON.stringify({ timestamp: '2026-05-11T09:00:00.000Z', type: 'brand_new_record', payload: {} })}\n`
  appendFileSync(rollout, line.repeat(3))
  const server = await startRetraceServer([], { CODEX_HOME: join(root, 'codex') })
  try {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openPath(project)
    const view = new WorkspaceView(page)
    await view.root.waitFor()
    await expect(view.sessionRows, `server output:\n${server.output()}`).toHaveCount(1)
    await page.getByTestId('workspace-menu').locator('summary').click()
    await page.getByTestId('workspace-menu').getByTestId('sources-open').click()
    const unread = page.getByTestId('sources-dialog').getByTestId('sources-unread')
    await expect(unread).toContainText('Codex CLI 0.125.0: 3 records of line type "brand_new_record" not read')
    await unread.scrollIntoViewIfNeeded()
    await snapshot(page, testInfo, '87-sources-unread')
    expect(consoleErrors).toEqual([])
  } finally {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
})
