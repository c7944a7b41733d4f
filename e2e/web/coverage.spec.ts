import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { shotsInLooks } from '../support/shots'
import { FirstScreen } from '../pages/first-screen'
import { SessionTreeView } from '../pages/session-tree'
import { WorkspaceView } from '../pages/workspace-view'
import { ClaudeHome, FIXTURES } from '../../src/main/sources/testing/claude-home'

// A real Claude Code 2.0.55 session (fixtures/claude-code/claude-code-log-turns, PROVENANCE.txt):
// 20 edits journaled; in turns 4 and 5 it wrote its plan file in ~/.claude/plans, outside the
// workspace (3 changes not recorded); 25 shell commands no scan saw. Moved into a test folder.
const SET = { dir: 'claude-code/claude-code-log-turns/-src-deep-manifest', cwd: '/src/deep-manifest' }
const PLAN_FILE = '/home/cboos/.claude/plans/humble-doodling-wolf.md'
const BADGE = '20 of 48 recorded'

test('rewind coverage shows in the list, the graph and the header; a turn and the rewind preview name what is not recorded', async ({ page, consoleErrors }, testInfo) => {
  const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-coverage-'))
  const project = realpathSync(mkdtempSync(join(root, 'project-')))
  mkdirSync(join(root, 'home'))
  const home = new ClaudeHome(join(root, 'claude'))
  const folder = home.addFixtureProject(join(FIXTURES, SET.dir), project)
  for (const name of readdirSync(folder)) writeFileSync(join(folder, name), readFileSync(join(folder, name), 'utf8').replaceAll(SET.cwd, project))
  const server = await startRetraceServer([], { CLAUDE_CONFIG_DIR: home.root, HOME: join(root, 'home') })
  try {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openPath(project)
    const view = new WorkspaceView(page)
    const row = view.sessionRows.filter({ has: page.locator('[data-testid="coverage-badge"]') })
    await expect(row.first(), `server output:\n${server.output()}`).toBeVisible()
    // The list: the session with changes has its badge; its sub-agent, without changes, none.
    await expect(row).toHaveCount(1)
    const badge = row.getByTestId('coverage-badge')
    await expect(badge).toHaveText(BADGE)
    await expect(badge).toHaveAttribute('data-status', 'partial')
    await expect(badge).toHaveAttribute('title', /3 changes not recorded \(each turn says why\)\.\n25 shell commands whose file changes no scan saw\./)

    // The transcript header: the same figures, the reasons counted from the turns.
    await row.click()
    const header = view.transcript.locator('.transcript-header').getByTestId('coverage-badge')
    await expect(header).toHaveText(BADGE)
    await expect(header).toHaveAttribute('title', /3 changes not recorded: 3 outside the workspace\./)
    await shotsInLooks(page, testInfo, 'coverage-list-and-header')

    // Turn 4's header: its change not recorded, with path, tool and reason, beside the recorded ones.
    await page.getByTestId('jump-to-turn').fill('4')
    await page.getByTestId('jump-to-turn').press('Enter')
    const turn4 = view.transcript.locator('[data-testid="turn-header"][data-turn="4"]')
    await expect(turn4.getByTestId('not-captured-mark')).toHaveText('⚠ 1 change not recorded')
    await turn4.getByTestId('turn-files-toggle').click()
    const entry = turn4.getByTestId('not-captured-change')
    await expect(entry).toHaveCount(1)
    await expect(entry).toHaveAttribute('data-path', PLAN_FILE)
    await expect(entry).toContainText('Write: outside the workspace')
    await shotsInLooks(page, testInfo, 'coverage-turn-header', () => turn4.scrollIntoViewIfNeeded())

    // The rewind preview from turn 4: the 3 changes of turns 4 and 5, before anything is applied.
    await turn4.getByRole('button', { name: 'Rewind files to before this turn' }).click()
    const dialog = page.getByTestId('rewind-dialog')
    const note = dialog.getByTestId('rewind-not-recorded')
    await expect(note.getByTestId('rewind-not-recorded-title')).toHaveText('3 changes in these turns are not recorded: this rewind leaves them as they are.')
    await expect(note.getByTestId('rewind-not-recorded-change')).toHaveText([
      `${PLAN_FILE} Write in turn 4: outside the workspace`,
      `${PLAN_FILE} Write in turn 5: outside the workspace`,
      `${PLAN_FILE} Write in turn 5: outside the workspace`
    ])
    await expect(note.getByTestId('rewind-uncaptured-commands')).toContainText('ran shell commands whose file changes were not captured')
    await shotsInLooks(page, testInfo, 'coverage-rewind-preview')
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)

    // The graph card.
    const tree = new SessionTreeView(page)
    await tree.open()
    const card = tree.root.locator('[data-testid="tree-node"][data-kind="main"]')
    await expect(card.getByTestId('coverage-badge')).toHaveText(BADGE)
    await expect(tree.root.locator('[data-testid="tree-node"][data-kind="sub-agent"]').getByTestId('coverage-badge')).toHaveCount(0)
    await shotsInLooks(page, testInfo, 'coverage-graph-card')
    expect(consoleErrors).toEqual([])
  } finally {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
})
