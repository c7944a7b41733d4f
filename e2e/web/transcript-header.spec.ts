import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page, TestInfo } from '@playwright/test'
import { expect, snapshot, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'
import { FIXTURES } from '../../src/main/sources/testing/claude-home'

// A real Claude Code session (fixtures/claude-code/claude-code-log, PROVENANCE.txt there): its
// header has the most controls (Continue in Claude Code, the internals toggle in the menu).
const SOUND_PROJECT = join(FIXTURES, 'claude-code', 'claude-code-log', '-Users-dain-workspace-JSSoundRecorder')
const SOUND_TITLE = 'OK, so this was just so you know what there is now'
const BRANCH = 'Try SQLite FTS5 instead of a scan'

interface Box {
  x: number
  y: number
  width: number
  height: number
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox()
  if (!box) throw new Error('not laid out')
  return box
}

/** The title row's heading and each of its controls (the menu's items are inside the menu, closed). */
async function rowParts(page: Page): Promise<{ heading: Box; controls: Box; parts: Box[]; header: Box; titleCut: boolean }> {
  const row = page.locator('.transcript-title-row')
  const heading = await boxOf(row.locator('.transcript-heading'))
  const controls = await boxOf(row.locator('.transcript-controls'))
  const header = await boxOf(page.locator('.transcript-header'))
  const parts = await row.locator('.transcript-controls .button, .transcript-controls .jump-to-turn, .transcript-controls .mode-toggle, .transcript-controls .continue-retrace-only, .transcript-controls .header-menu > summary').evaluateAll((elements) =>
    elements.filter((element) => element.getClientRects().length > 0 && !element.closest('.header-menu-items')).map((element) => {
      const rect = element.getBoundingClientRect()
      return { x: rect.x, y: rect.y, width: rect.width, height: rect.height }
    })
  )
  const titleCut = await row.locator('.transcript-title').evaluate((title) => title.scrollWidth > title.clientWidth)
  return { heading, controls, parts, header, titleCut }
}

const middle = (box: Box) => box.y + box.height / 2

async function expectOneLine(page: Page): Promise<void> {
  const { heading, parts } = await rowParts(page)
  expect(parts.length).toBeGreaterThan(3)
  for (const part of parts) expect(Math.abs(middle(part) - middle(heading))).toBeLessThanOrEqual(4)
}

/** Narrower: the controls go below the title, together on one line, inside the header; the title has the whole row. */
async function expectControlsBelow(page: Page): Promise<void> {
  const { heading, controls, parts, header } = await rowParts(page)
  expect(controls.y).toBeGreaterThanOrEqual(heading.y + heading.height - 1)
  for (const part of parts) {
    expect(Math.abs(middle(part) - middle(controls))).toBeLessThanOrEqual(4)
    expect(part.x + part.width).toBeLessThanOrEqual(header.x + header.width)
  }
  // The header's padding is 20 px a side.
  expect(heading.width).toBeGreaterThanOrEqual(header.width - 41)
}

async function look(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await snapshot(page, testInfo, name)
  await page.emulateMedia({ colorScheme: 'dark' })
  await snapshot(page, testInfo, `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
}

test.describe('the transcript header', () => {
  test('a branch: one line at 1280 px; at 1024 px its controls wrap below the title as one line', async ({ page, server, consoleErrors }, testInfo) => {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openDemo()
    const workspace = new WorkspaceView(page)
    await workspace.openSession(BRANCH)
    await expect(workspace.transcript.getByTestId('merge-into-parent')).toBeVisible()
    await expectOneLine(page)
    await look(page, testInfo, '150-header-branch-1280')

    await page.setViewportSize({ width: 1024, height: 700 })
    // The demo branch's title, cut short at 1280 px beside the controls, is whole on its own line.
    await expect.poll(async () => (await rowParts(page)).titleCut).toBe(false)
    await expectControlsBelow(page)
    await look(page, testInfo, '151-header-branch-1024')

    // The less frequent actions are one click away, in the Session menu.
    const menu = workspace.sessionMenu
    await menu.locator('summary').click()
    for (const id of ['replay-open', 'export-open', 'open-compare', 'open-compare-parent', 'open-rewinds']) await expect(menu.getByTestId(id)).toBeVisible()
    await snapshot(page, testInfo, '152-header-session-menu-1024')
    await page.keyboard.press('Escape')
    await expect(menu.getByTestId('open-rewinds')).toBeHidden()
    expect(consoleErrors).toEqual([])
  })

  test('a Claude Code session: Continue in Claude Code, and the internals toggle in the menu, on one line at 1280 px', async ({ page, consoleErrors }, testInfo) => {
    const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-header-'))
    const project = join(root, 'project')
    mkdirSync(project)
    const workspaceDir = realpathSync(project)
    const sessions = join(root, 'claude', 'projects', workspaceDir.replace(/[^A-Za-z0-9]/g, '-'))
    mkdirSync(sessions, { recursive: true })
    cpSync(SOUND_PROJECT, sessions, { recursive: true })
    // The recorded cwd is moved to the temp workspace so opening it imports the session.
    for (const name of readdirSync(sessions, { recursive: true, encoding: 'utf8' })) {
      const path = join(sessions, name)
      if (name.endsWith('.jsonl') && statSync(path).isFile()) writeFileSync(path, readFileSync(path, 'utf8').replaceAll('"cwd":"/Users/dain/workspace/JSSoundRecorder', `"cwd":"${workspaceDir}`))
    }
    const server = await startRetraceServer([], { CLAUDE_CONFIG_DIR: join(root, 'claude') })
    try {
      const first = new FirstScreen(page)
      await first.goto(server.url)
      await first.openPath(project)
      const workspace = new WorkspaceView(page)
      await workspace.root.waitFor()
      await expect(workspace.session(SOUND_TITLE), `server output:\n${server.output()}`).toHaveCount(1)
      await workspace.openSession(SOUND_TITLE)
      await expect(workspace.transcript.getByTestId('continue-in-agent')).toBeVisible()
      await expectOneLine(page)
      await look(page, testInfo, '153-header-claude-code-1280')
      const toggle = await workspace.sessionAction('internals-toggle')
      await expect(toggle).toHaveText('Show internals')
      await toggle.click()
      await expect(workspace.sessionMenu.locator('summary')).toBeFocused()
      await expect(await workspace.sessionAction('internals-toggle')).toHaveText('Hide internals')
      await page.keyboard.press('Escape')

      await page.setViewportSize({ width: 1024, height: 700 })
      await expect.poll(async () => (await rowParts(page)).controls.y).toBeGreaterThan((await rowParts(page)).heading.y + 10)
      await expectControlsBelow(page)
      await look(page, testInfo, '154-header-claude-code-1024')
      expect(consoleErrors).toEqual([])
    } finally {
      await server.stop()
      rmSync(root, { recursive: true, force: true })
    }
  })
})
