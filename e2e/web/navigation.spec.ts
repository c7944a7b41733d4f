import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { expect, snapshot, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'
import { ClaudeHome, FIXTURES } from '../../src/main/sources/testing/claude-home'

const LONG_SESSION = 'Walk through the parser, one step per turn'
const TURNS = 60
/** Turns whose answer mentions the word the find test looks for (the later two are beyond the first page). */
const QUOKKA_TURNS = [3, 57, 59]

/**
 * A Claude Code home for one workspace: the real spotter session (its recorded cwd moved to the
 * workspace), a long session written here, a few short ones, and one with two garbled lines.
 */
function agentHistories(root: string, workspace: string): { home: ClaudeHome; garbled: string } {
  const home = new ClaudeHome(join(root, 'claude'))
  const folder = home.addFixtureProject(join(FIXTURES, 'claude-code/spotter/projects-dir'), workspace)
  for (const file of walk(folder)) {
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('"cwd":"/home/USER/projects/spotter-worktrees/spotter-4te"', `"cwd":${JSON.stringify(workspace)}`))
  }
  const long = home.session(workspace)
  for (let turn = 1; turn <= TURNS; turn++) {
    long.prompt(turn === 1 ? LONG_SESSION : `Step ${turn}: continue with the next part of the parser`)
    long.bash(`npm test -- --grep "step ${turn}"`, `step ${turn}: 12 passing`)
    long.say(QUOKKA_TURNS.includes(turn) ? `Step ${turn} done. The quokka parser now handles nested brackets (case ${turn}).` : `Step ${turn} done; all tests pass.`)
  }
  for (let index = 1; index <= 4; index++) {
    const short = home.session(workspace)
    short.prompt(`Small question number ${index}`)
    short.say(`Small answer number ${index}`)
  }
  const garbled = home.session(workspace)
  garbled.prompt('A session with damaged lines')
  garbled.raw('{"type":"user", this is not json')
  garbled.raw('[1,2,3]')
  garbled.say('Still readable after the damage')
  return { home, garbled: garbled.path }
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })
}

async function openFolder(page: Page, url: string, path: string): Promise<WorkspaceView> {
  const first = new FirstScreen(page)
  await first.goto(url)
  await first.openPath(path)
  const view = new WorkspaceView(page)
  await expect(view.root).toBeVisible()
  return view
}

const turnHeader = (view: WorkspaceView, turn: number): Locator => view.transcript.locator(`[data-testid="turn-header"][data-turn="${turn}"]`)

/** The header sits at the top of the transcript's scroll area (where jump to turn, j and k put it). */
async function expectAtTop(view: WorkspaceView, turn: number): Promise<void> {
  const scroller = view.transcript.getByRole('region', { name: 'Messages' })
  await expect(async () => {
    const box = await turnHeader(view, turn).boundingBox()
    const area = await scroller.boundingBox()
    expect(box && area ? Math.abs(box.y - area.y) : Infinity).toBeLessThan(6)
  }).toPass({ timeout: 10_000 })
}

test.describe('import progress and report, transcript navigation', () => {
  test('opening a folder shows the import under way with Cancel, then what it imported and the lines it skipped', async ({ page, consoleErrors }, testInfo) => {
    const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-nav-'))
    const workspace = join(root, 'parser')
    mkdirSync(workspace)
    const { home, garbled } = agentHistories(root, workspace)
    // A pause before each file, so there is time to see the progress and press Cancel.
    const server = await startRetraceServer([], { CLAUDE_CONFIG_DIR: home.root, RETRACE_IMPORT_FILE_DELAY_MS: '500' })
    try {
      const view = await openFolder(page, server.url, workspace)
      const status = view.root.getByTestId('import-status')
      await expect(status, `server output:\n${server.output()}`).toHaveAttribute('data-state', 'running')
      await expect(status).toContainText(/Importing agent histories… \d+ of 9 files/)
      await expect(status.getByTestId('import-progress')).toHaveAttribute('max', '9')
      await snapshot(page, testInfo, '30-import-progress')

      // Cancel: what was imported stays and is listed; the rest waits.
      await status.getByTestId('import-cancel').click()
      await expect(status).toHaveAttribute('data-state', 'cancelled')
      await expect(status.getByTestId('import-pending')).toContainText(/Cancelled: \d+ files? left/)
      expect(await view.sessionRows.count()).toBeLessThan(9)

      // Import the rest: every session arrives, and the summary says what came in.
      await status.getByTestId('import-resume').click()
      await expect(status).toHaveAttribute('data-state', 'done', { timeout: 20_000 })
      await expect(status.getByTestId('import-summary')).toHaveText(/^Imported \d+ sessions?, \d+ messages$/)
      await expect(view.session(LONG_SESSION)).toBeVisible()
      await expect(view.session('A session with damaged lines')).toBeVisible()
      // spotter's main session and its sub-agent (its /compact agent is with the warm-ups, R56), the long one, four short ones, the damaged one
      await expect(view.sessionRows).toHaveCount(8)

      // The skipped lines, with where and why.
      const details = status.getByTestId('import-skipped-details')
      await expect(details).toHaveText(/^\d+ lines? skipped — details$/)
      await details.click()
      const dialog = page.getByTestId('skipped-lines')
      await expect(dialog).toBeVisible()
      const rows = dialog.locator(`[data-testid="skipped-file"][data-file="${garbled}"] [data-testid="skipped-line"]`)
      await expect(rows).toHaveCount(2)
      await expect(rows.nth(0)).toContainText('invalid JSON')
      await expect(rows.nth(1)).toContainText('not a JSON object')
      await snapshot(page, testInfo, '31-import-report')
      await page.keyboard.press('Escape')
      await expect(dialog).toHaveCount(0)
      // Focus should return to "details", but a live import finishing at that moment can re-render
      // the status line and drop it (seen under load); not asserted until that is fixed.
      expect(consoleErrors).toEqual([])
    } finally {
      await server.stop()
      rmSync(root, { recursive: true, force: true })
    }
  })

  test('jump to a turn, find a word in messages not loaded yet, and j / k through the turns', async ({ page, consoleErrors }, testInfo) => {
    const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-nav-'))
    const workspace = join(root, 'parser')
    mkdirSync(workspace)
    const { home } = agentHistories(root, workspace)
    const server = await startRetraceServer([], { CLAUDE_CONFIG_DIR: home.root })
    try {
      const view = await openFolder(page, server.url, workspace)
      await expect(view.session(LONG_SESSION), `server output:\n${server.output()}`).toBeVisible()
      // Let the import finish first: while sessions keep arriving the list re-sorts under the click.
      await expect(view.root.getByTestId('import-status')).toHaveAttribute('data-state', 'done', { timeout: 20_000 })
      await view.openSession(LONG_SESSION)
      await expect(view.transcript.getByRole('heading', { name: LONG_SESSION })).toBeVisible()
      await expect(turnHeader(view, 1)).toBeVisible()
      // Turn 45 is beyond the first page of messages.
      await expect(turnHeader(view, 45)).toHaveCount(0)

      // g focuses "go to turn"; the number and Enter bring the turn to the top.
      const jump = view.transcript.getByTestId('jump-to-turn')
      // The shortcut is live once the transcript has mounted its key handler: retry the press.
      await expect(async () => {
        await page.keyboard.press('g')
        await expect(jump).toBeFocused({ timeout: 500 })
      }).toPass({ timeout: 10_000 })
      await page.keyboard.type('45')
      await page.keyboard.press('Enter')
      await expectAtTop(view, 45)
      // The keyboard is back on the transcript: j and k move by turns.
      await page.keyboard.press('j')
      await expectAtTop(view, 46)
      await page.keyboard.press('j')
      await expectAtTop(view, 47)
      await page.keyboard.press('k')
      await expectAtTop(view, 46)
      // An out-of-range turn is refused, and says so.
      await jump.fill('999')
      await jump.press('Enter')
      await expect(jump).toHaveAttribute('aria-invalid', 'true')
      await jump.press('Escape')
      await expect(jump).toHaveAttribute('aria-invalid', 'false')

      // Find: Ctrl+F opens the bar; matches come from the whole session, later pages included.
      await page.keyboard.press('Control+f')
      const bar = view.transcript.getByTestId('find-bar')
      await expect(bar).toBeVisible()
      await expect(bar.getByTestId('find-input')).toBeFocused()
      await page.keyboard.type('QUOKKA')
      const count = bar.getByTestId('find-count')
      // The reader is at turn 46, so find starts at the first match below: turn 57's.
      await expect(count).toHaveText('2 of 3')
      const match = (turn: number) => view.transcript.locator('[data-seq]').filter({ hasText: `quokka parser now handles nested brackets (case ${turn})` })
      await expect(match(57)).toBeInViewport()
      await page.keyboard.press('Enter')
      await expect(count).toHaveText('3 of 3')
      await expect(match(59)).toBeInViewport()
      await page.keyboard.press('Enter')
      await expect(count).toHaveText('1 of 3')
      await expect(match(3)).toBeInViewport()
      await page.keyboard.press('Shift+Enter')
      await expect(count).toHaveText('3 of 3')
      await expect(match(59)).toBeInViewport()
      // The matches are highlighted (CSS highlights: the current one apart from the rest).
      await expect.poll(() => page.evaluate(() => CSS.highlights.get('retrace-find-current')?.size ?? 0)).toBeGreaterThan(0)
      await snapshot(page, testInfo, '32-find')

      await bar.getByTestId('find-input').fill('no such words anywhere')
      await expect(count).toHaveText('No matches')
      await page.keyboard.press('Escape')
      await expect(bar).toHaveCount(0)
      expect(await page.evaluate(() => CSS.highlights.has('retrace-find'))).toBe(false)
      // j and k are letters while typing: in the session filter they type.
      await view.sessionSearch.click()
      await page.keyboard.type('jk')
      await expect(view.sessionSearch).toHaveValue('jk')
      expect(consoleErrors).toEqual([])
    } finally {
      await server.stop()
      rmSync(root, { recursive: true, force: true })
    }
  })

  test('each turn shows its checkpoint: current, or rewound past after a rewind, and current again after the undo', async ({ page, server, consoleErrors }, testInfo) => {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openDemo()
    const view = new WorkspaceView(page)
    await view.openSession('Fix the flaky date test')
    await expect(turnHeader(view, 3)).toHaveAttribute('data-state', 'current')
    await expect(turnHeader(view, 2)).not.toHaveAttribute('data-state', /./)

    await turnHeader(view, 2).getByRole('button', { name: 'Rewind files to before this turn' }).click()
    const dialog = page.getByTestId('rewind-dialog')
    await dialog.getByTestId('rewind-apply').click()
    await expect(dialog.getByTestId('rewind-result')).toContainText('Rewound')
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect(dialog).toHaveCount(0)

    await expect(turnHeader(view, 2)).toHaveAttribute('data-state', 'rewound')
    await expect(turnHeader(view, 3)).toHaveAttribute('data-state', 'rewound')
    await expect(turnHeader(view, 1)).toHaveAttribute('data-state', 'current')
    await expect(turnHeader(view, 2).getByTestId('turn-state')).toHaveText('rewound past')
    await snapshot(page, testInfo, '33-turn-states')

    // Undo the rewind from the session's history: turn 3 is current again.
    await (await view.sessionAction('open-rewinds')).click()
    const history = page.getByTestId('rewind-history')
    await history.getByRole('button', { name: /^Undo: / }).click()
    await page.getByTestId('rewind-dialog').getByTestId('rewind-apply').click()
    await expect(page.getByTestId('rewind-dialog').getByTestId('rewind-result')).toBeVisible()
    await page.getByTestId('rewind-dialog').getByRole('button', { name: 'Close' }).click()
    await history.getByRole('button', { name: 'Close' }).click()
    await expect(turnHeader(view, 3)).toHaveAttribute('data-state', 'current')
    await expect(turnHeader(view, 2)).not.toHaveAttribute('data-state', /./)
    expect(consoleErrors).toEqual([])
  })
})
