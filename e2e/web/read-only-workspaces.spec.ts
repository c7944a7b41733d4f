import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, snapshot, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'

/** A Codex rollout in its real format, recorded in `cwd`: per turn a prompt and an apply_patch call. */
function writeRollout(codexHome: string, id: string, cwd: string, prompts: string[]): void {
  const folder = join(codexHome, 'sessions', '2026', '01', '01')
  mkdirSync(folder, { recursive: true })
  const at = (second: number) => `2026-01-01T10:00:${String(second).padStart(2, '0')}.000Z`
  const lines: object[] = [{ timestamp: at(0), type: 'session_meta', payload: { id, timestamp: at(0), cwd, originator: 'codex-tui', cli_version: '0.125.0', source: 'cli', model_provider: 'openai' } }]
  prompts.forEach((prompt, i) => {
    const callId = `call_${id.slice(-4)}_${i}`
    lines.push(
      { timestamp: at(3 * i + 1), type: 'event_msg', payload: { type: 'user_message', message: prompt, images: [], local_images: [], text_elements: [] } },
      { timestamp: at(3 * i + 2), type: 'response_item', payload: { type: 'custom_tool_call', status: 'completed', call_id: callId, name: 'apply_patch', input: `*** Begin Patch\n*** Add File: .config/tool-${i}.conf\n+setting = ${i}\n*** End Patch\n` } },
      { timestamp: at(3 * i + 3), type: 'response_item', payload: { type: 'custom_tool_call_output', call_id: callId, output: 'Success. Updated the following files.' } }
    )
  })
  writeFileSync(join(folder, `rollout-2026-01-01T10-00-00-${id}.jsonl`), lines.map((line) => JSON.stringify(line)).join('\n') + '\n')
}

test.describe('histories recorded in the home folder (an agent run in a container records /root)', () => {
  test('the first screen lists the home folder read-only; it opens, browses, and says why its files are never rewound', async ({ page, consoleErrors }, testInfo) => {
    const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-home-'))
    const home = join(root, 'root')
    const codexHome = join(root, 'codex')
    mkdirSync(join(home, 'app'), { recursive: true })
    writeRollout(codexHome, '019b0000-0000-7000-8000-00000000d0d0', home, ['configure the linter for me', 'and the formatter'])
    writeRollout(codexHome, '019b0000-0000-7000-8000-00000000d0d1', home, ['what is in this container?'])
    writeRollout(codexHome, '019b0000-0000-7000-8000-00000000e0e0', join(home, 'app'), ['add a readme'])
    const server = await startRetraceServer([], { CODEX_HOME: codexHome, CLAUDE_CONFIG_DIR: join(root, 'no-claude'), HOME: home })
    try {
      await page.setViewportSize({ width: 1024, height: 768 })
      const first = new FirstScreen(page)
      await first.goto(server.url)
      const homeRow = first.recentWorkspaces.filter({ has: page.locator('.recent-path', { hasText: new RegExp(`^${home}$`) }) })
      await expect(homeRow, `server output:\n${server.output()}`).toHaveAttribute('data-read-only', 'true')
      await expect(homeRow.getByTestId('recent-read-only')).toHaveText('read-only')
      await expect(homeRow).toContainText('2 sessions · codex')
      await snapshot(page, testInfo, 'read-only-first-screen-light')
      await page.getByTestId('theme-toggle').click()
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark')
      await snapshot(page, testInfo, 'read-only-first-screen-dark')
      await page.getByTestId('theme-toggle').click()

      await homeRow.click()
      const view = new WorkspaceView(page)
      await expect(view.session('configure the linter for me')).toBeVisible()
      await expect(view.session('what is in this container?')).toBeVisible()
      await expect(view.session('add a readme')).toHaveCount(0)
      await expect(page.getByTestId('workspace-read-only')).toHaveText('read-only')
      await expect(page.getByTestId('read-only-notice')).toContainText('Read-only. Browse, search, export and fork these sessions without their files')
      await expect(page.getByTestId('read-only-notice')).toContainText('it is your home folder')
      await view.openSession('configure the linter for me')
      await expect(view.transcript.getByText('and the formatter').first()).toBeVisible()
      await snapshot(page, testInfo, 'read-only-workspace-light')
      await page.getByTestId('theme-toggle').click()
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark')
      await snapshot(page, testInfo, 'read-only-workspace-dark')
      await page.getByTestId('theme-toggle').click()

      // No rewind to try: the turn's button says why; forking the conversation stays.
      const turn = view.transcript.locator('[data-testid="turn-header"][data-turn="1"]')
      const rewind = turn.getByRole('button', { name: 'Rewind files to before this turn' })
      await expect(rewind).toBeDisabled()
      await expect(rewind).toHaveAttribute('title', /^Read-only: Retrace never rewinds files here\. .*it is your home folder/)
      await expect(turn.getByRole('button', { name: 'Fork from here' })).toBeEnabled()
      // What its changes were is said, not dropped: the import's report counts them.
      await expect(page.getByRole('button', { name: '3 changes not journaled' })).toBeVisible()
      expect(consoleErrors).toEqual([])
    } finally {
      await server.stop()
      rmSync(root, { recursive: true, force: true })
    }
  })
})
