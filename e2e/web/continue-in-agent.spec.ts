import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, snapshot, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { SessionTreeView } from '../pages/session-tree'
import { WorkspaceView } from '../pages/workspace-view'
import { FIXTURES } from '../../src/main/sources/testing/claude-home'

// Real Claude Code sessions (fixtures/claude-code/claude-code-log, PROVENANCE.txt there): one of
// six turns, and one whose Agent calls started sub-agents; their recorded cwd is moved to a temp
// workspace so opening it imports them.
const SET = join(FIXTURES, 'claude-code', 'claude-code-log')
const SOUND_PROJECT = '-Users-dain-workspace-JSSoundRecorder'
// Titled by its first prompt (the IDE's note that a file was opened comes before the words).
const SOUND_TITLE = 'OK, so this was just so you know what there is now'
const TEAM_PROJECT = '-experiments-worktrees'
const TEAM_TITLE = "OK, we're going to make a little experiment here"

function moveRecordedCwd(folder: string, from: string, to: string): void {
  for (const name of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    const path = join(folder, name)
    if (name.endsWith('.jsonl') && statSync(path).isFile()) writeFileSync(path, readFileSync(path, 'utf8').replaceAll(`"cwd":"${from}`, `"cwd":"${to}`))
  }
}

/** Every file under the folder (relative paths): what Claude Code has. */
function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((name) => statSync(join(root, name)).isFile()).sort()
}

test('continue a Claude Code session in Claude Code, see where a branch and a sub-agent leave their parent', async ({ page, consoleErrors }, testInfo) => {
  const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-continue-'))
  const project = join(root, 'project')
  mkdirSync(project)
  const workspace = realpathSync(project)
  const sessions = join(root, 'claude', 'projects', workspace.replace(/[^A-Za-z0-9]/g, '-'))
  mkdirSync(sessions, { recursive: true })
  cpSync(join(SET, SOUND_PROJECT), sessions, { recursive: true })
  cpSync(join(SET, TEAM_PROJECT), sessions, { recursive: true })
  moveRecordedCwd(sessions, '/Users/dain/workspace/JSSoundRecorder', workspace)
  moveRecordedCwd(sessions, '-experiments/worktrees', workspace)
  const before = filesUnder(join(root, 'claude'))
  const server = await startRetraceServer([], { CLAUDE_CONFIG_DIR: join(root, 'claude') })
  try {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openPath(project)
    const view = new WorkspaceView(page)
    await view.root.waitFor()
    await expect(view.session(SOUND_TITLE), `server output:\n${server.output()}`).toHaveCount(1)
    await view.openSession(SOUND_TITLE)
    const header = view.transcript.locator('.transcript-header')

    // Continue in Claude Code: a new session file up to turn 2, and the command that resumes it.
    await header.getByTestId('continue-in-agent').click()
    const dialog = page.getByTestId('continue-dialog')
    await expect(dialog.getByRole('heading', { name: 'Continue in Claude Code' })).toBeVisible()
    await dialog.getByTestId('continue-turn').fill('2')
    await snapshot(page, testInfo, '120-continue-in-claude-code')
    await dialog.getByTestId('continue-submit').click()
    const command = dialog.getByTestId('continue-command')
    await expect(command).toHaveText(/^cd .+ && claude --resume [0-9a-f-]{36}$/)
    const id = ((await command.textContent()) ?? '').split(' ').at(-1) ?? ''
    const written = join(sessions, `${id}.jsonl`)
    expect(existsSync(written)).toBe(true)
    // Only the new file was added; nothing of Claude Code's was removed.
    expect(filesUnder(join(root, 'claude'))).toEqual([...before, join('projects', workspace.replace(/[^A-Za-z0-9]/g, '-'), `${id}.jsonl`)].sort())
    await expect(dialog.getByTestId('continue-result')).toContainText('up to the end of turn 2')
    // The session's folder is here (the workspace): no warning.
    await expect(dialog.getByTestId('continue-cwd-missing')).toHaveCount(0)
    await snapshot(page, testInfo, '121-continue-command')
    await dialog.getByRole('button', { name: 'Done' }).click()
    await expect(dialog).toHaveCount(0)

    // Fork from turn 2: the branch is a Retrace branch of a Claude Code session, so it continues there too.
    // Turn 1 is long: go to turn 2 first (the list draws only what is on screen).
    await view.transcript.getByTestId('jump-to-turn').fill('2')
    await view.transcript.getByTestId('jump-to-turn').press('Enter')
    await view.transcript.locator('[data-testid="turn-header"][data-turn="2"]').getByRole('button', { name: 'Fork from here' }).click()
    const fork = page.getByTestId('fork-dialog')
    await fork.getByTestId('fork-name').fill('Serve it another way')
    await fork.getByTestId('fork-submit').click()
    await expect(fork).toHaveCount(0)
    await expect(header.getByRole('heading', { name: 'Serve it another way' })).toBeVisible()
    await expect(header.getByTestId('continue-in-agent')).toHaveText(/Continue in Claude Code/)
    // The branch's Parent link says where it left, and shows that place in the parent, which marks it.
    const place = header.getByTestId('fork-place-link')
    await expect(place).toHaveText('from turn 2')
    await place.click()
    const marker = view.transcript.locator('[data-testid="branch-marker"][data-turn="2"]')
    await expect(marker).toBeVisible()
    await expect(marker.getByTestId('branch-marker-link')).toHaveText('Serve it another way')
    await snapshot(page, testInfo, '122-branch-marker-in-parent')

    // The graph's card of the branch says the turn too.
    const tree = new SessionTreeView(page)
    await tree.open()
    await expect(tree.node('Serve it another way').getByTestId('tree-fork-turn')).toHaveText('from turn 2')
    await snapshot(page, testInfo, '123-graph-from-turn')
    await marker.getByTestId('branch-marker-link').click()
    await expect(header.getByRole('heading', { name: 'Serve it another way' })).toBeVisible()
    await tree.showList.click()

    // A sub-agent: its Parent link shows the Agent call that started it, and that call links back.
    await view.openSession(TEAM_TITLE)
    // Its sub-sessions are in a menu (the header keeps one line of links whatever their number).
    const subSessions = header.getByTestId('sub-sessions-menu')
    await subSessions.locator('summary').click()
    const firstAgent = subSessions.getByTestId('session-link').filter({ hasText: '(sub-agent)' }).first()
    const agentTitle = ((await firstAgent.textContent()) ?? '').replace(' (sub-agent)', '')
    await firstAgent.click()
    await expect(header.getByRole('heading', { name: agentTitle })).toBeVisible()
    await expect(header.getByTestId('fork-place-link')).toHaveText(/^started by its tool call/)
    await header.getByTestId('fork-place-link').click()
    await expect(header.getByRole('heading', { name: TEAM_TITLE })).toBeVisible()
    const callRow = view.transcript.locator('.transcript-row.focused')
    await expect(callRow.getByTestId('tool-call')).toContainText('Agent')
    const link = callRow.getByTestId('sub-agent-link')
    await expect(link).toBeVisible()
    await link.first().scrollIntoViewIfNeeded()
    await snapshot(page, testInfo, '124-agent-call-links-sub-agent')
    await link.first().click()
    await expect(header.getByRole('heading', { name: agentTitle })).toBeVisible()

    // Dark, 1024 px: the dialog with the command, and the marker.
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.setViewportSize({ width: 1024, height: 700 })
    await view.openSession(SOUND_TITLE)
    await header.getByTestId('continue-in-agent').click()
    await dialog.getByTestId('continue-submit').click()
    await expect(dialog.getByTestId('continue-command')).toBeVisible()
    await snapshot(page, testInfo, '125-continue-command-dark-1024')
    await dialog.getByRole('button', { name: 'Done' }).click()
    await page.getByText('Serve it another way').first().click()
    await header.getByTestId('fork-place-link').click()
    await expect(marker).toBeVisible()
    await snapshot(page, testInfo, '126-branch-marker-dark-1024')
    expect(consoleErrors).toEqual([])
  } finally {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
})

test('a branch of a session no agent can resume says it is Retrace-only', async ({ page, server, consoleErrors }, testInfo) => {
  const first = new FirstScreen(page)
  await first.goto(server.url)
  await first.openDemo()
  const view = new WorkspaceView(page)
  await view.root.waitFor()
  await view.openSession('Try SQLite FTS5 instead of a scan')
  const header = view.transcript.locator('.transcript-header')
  await expect(header.getByTestId('continue-retrace-only')).toHaveText('Retrace-only: no agent can resume it')
  await expect(header.getByTestId('continue-in-agent')).toHaveCount(0)
  await snapshot(page, testInfo, '127-retrace-only-branch')
  // In the parent (the demo's own native session), the branch is marked at its turn and the Task call links its sub-agent.
  await header.getByRole('button', { name: /Add full-text search to the notes CLI/ }).click()
  await expect(view.transcript.locator('[data-testid="branch-marker"][data-turn="2"]').getByTestId('branch-marker-link')).toHaveText('Try SQLite FTS5 instead of a scan')
  await view.toolCall('Find where notes are stored').getByTestId('sub-agent-link').click()
  await expect(header.getByRole('heading', { name: 'Explore: where are notes stored?' })).toBeVisible()
  await expect(header.getByTestId('fork-place-link')).toHaveText('started by its tool call in turn 1')
  expect(consoleErrors).toEqual([])
})
