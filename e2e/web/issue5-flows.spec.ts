import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, snapshot, test } from '../support/fixtures'
import { startRetraceServer, type RunningServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { SessionTreeView } from '../pages/session-tree'
import { WorkspaceView } from '../pages/workspace-view'
import { ClaudeHome, FIXTURES } from '../../src/main/sources/testing/claude-home'
import { encodeProjectFolder } from '../../src/main/sources/claude-code/project-folder'

// Issue 5's end-to-end flow on a real agent history: the codemie Claude Code session (Claude Code
// 2.0.64; fixtures/claude-code/codemie/PROVENANCE.txt) placed under a temporary folder. Turn 1
// writes hello.py, hello.md and hello.js; turn 2 adds a one-line comment to hello.py with Edit;
// turn 3 deletes hello.js with `rm`. Two warm-up sub-agents sit beside it as agent-*.jsonl.
const FIXTURE_DIR = join(FIXTURES, 'claude-code/codemie/-tmp-private')
const RECORDED_CWD = '/tmp/private'
const MAIN_TITLE = 'create hello.py, md and js'
const EDIT_TURN = 2
const ADDED_LINE = '# Simple hello world program'

interface PlacedFixture {
  root: string
  workspace: string
  home: ClaudeHome
  /** The files as the agent left them at the end of the session (path → content). */
  finalFiles: Map<string, string>
  /** hello.py before turn 2's Edit (what turn 1's Write created). */
  helloBefore: string
}

/** `text` with every `from` inside its JSON strings replaced by `to` (escaped for JSON). */
function replaceInJson(text: string, from: string, to: string): string {
  return text.split(JSON.stringify(from).slice(1, -1)).join(JSON.stringify(to).slice(1, -1))
}

/**
 * Replay the session's file operations to get the files as the agent left them: Write results
 * (`toolUseResult.type` create/update, with the whole `content`), Edit results (`oldString` →
 * `newString`, checked against the recorded `originalFile`), and the one shell command that
 * changed a file (`rm hello.js`), which no tool result records.
 */
function replayFiles(sessionJsonl: string, cwd: string): Map<string, string> {
  const files = new Map<string, string>()
  const relative = (path: string) => {
    expect(path.startsWith(`${cwd}/`), `${path} is inside ${cwd}`).toBe(true)
    return path.slice(cwd.length + 1)
  }
  for (const line of sessionJsonl.split('\n').filter(Boolean)) {
    const entry = JSON.parse(line) as { toolUseResult?: Record<string, unknown>; message?: { content?: unknown } }
    const result = entry.toolUseResult
    if (result && typeof result.filePath === 'string') {
      const path = relative(result.filePath)
      if ((result.type === 'create' || result.type === 'update') && typeof result.content === 'string') {
        files.set(path, result.content)
      } else if (typeof result.oldString === 'string' && typeof result.newString === 'string') {
        const before = files.get(path)
        expect(before, `the Edit of ${path} starts from what the session wrote`).toBe(result.originalFile)
        files.set(path, (before ?? '').replace(result.oldString, result.newString))
      }
    }
    const content = entry.message?.content
    if (Array.isArray(content)) {
      for (const block of content as { type?: string; name?: string; input?: { command?: string } }[]) {
        const rm = block.type === 'tool_use' && block.name === 'Bash' ? /^rm (\S+)$/.exec(block.input?.command ?? '') : null
        if (rm?.[1]) files.delete(rm[1])
      }
    }
  }
  return files
}

/**
 * Copy the fixture into a fresh Claude Code config folder as the project of a real temporary
 * workspace (every recorded `/tmp/private` rewritten to it), and create that workspace with the
 * files the session left behind.
 */
function placeFixture(): PlacedFixture {
  const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-codemie-'))
  const workspace = join(root, 'private')
  mkdirSync(workspace)
  const home = new ClaudeHome(join(root, 'claude'))
  const project = join(home.root, 'projects', encodeProjectFolder(workspace))
  mkdirSync(project, { recursive: true })
  let mainSession = ''
  for (const name of readdirSync(FIXTURE_DIR)) {
    const text = replaceInJson(readFileSync(join(FIXTURE_DIR, name), 'utf8'), RECORDED_CWD, workspace)
    expect(text).not.toContain(RECORDED_CWD)
    writeFileSync(join(project, name), text)
    if (!name.startsWith('agent-')) mainSession = text
  }
  const finalFiles = replayFiles(mainSession, workspace)
  for (const [path, content] of finalFiles) writeFileSync(join(workspace, path), content)
  // What turn 2's Edit started from, as recorded in its result.
  const edit = mainSession.split('\n').map((line) => (line ? (JSON.parse(line) as { toolUseResult?: { oldString?: string; originalFile?: string } }) : {}))
  const helloBefore = edit.find((entry) => entry.toolUseResult?.oldString !== undefined)?.toolUseResult?.originalFile ?? ''
  return { root, workspace, home, finalFiles, helloBefore }
}

const turnHeader = (workspace: WorkspaceView, turn: number) => workspace.transcript.locator(`[data-testid="turn-header"][data-turn="${turn}"]`)

async function openWorkspace(page: Page, server: RunningServer, path: string): Promise<{ workspace: WorkspaceView; tree: SessionTreeView }> {
  const first = new FirstScreen(page)
  await first.goto(server.url)
  await first.openPath(path)
  const workspace = new WorkspaceView(page)
  await expect(workspace.session(MAIN_TITLE), `server output:\n${server.output()}`).toBeVisible()
  return { workspace, tree: new SessionTreeView(page) }
}

test.describe('issue 5: the codemie Claude Code session, end to end', () => {
  let fixture: PlacedFixture
  let server: RunningServer

  test.beforeEach(async () => {
    fixture = placeFixture()
    server = await startRetraceServer([], { CLAUDE_CONFIG_DIR: fixture.home.root })
  })

  test.afterEach(async () => {
    await server.stop()
    rmSync(fixture.root, { recursive: true, force: true })
  })

  test('graph → the turn that edited hello.py → its diff → rewind (on disk) → undo; a changed file is a conflict', async ({ page, consoleErrors }, testInfo) => {
    const hello = join(fixture.workspace, 'hello.py')
    const after = fixture.finalFiles.get('hello.py') ?? ''
    expect(after).toContain(ADDED_LINE)
    expect(fixture.helloBefore).not.toContain(ADDED_LINE)
    expect([...fixture.finalFiles.keys()].sort()).toEqual(['hello.md', 'hello.py'])
    expect(readFileSync(hello, 'utf8')).toBe(after)

    const { workspace, tree } = await openWorkspace(page, server, fixture.workspace)
    await tree.open()
    // Its two sub-agents (agent-36541525, agent-50243ee8) are Claude Code's start-up warm-ups:
    // hidden until asked for.
    await expect(tree.nodes).toHaveCount(1)
    await page.getByTestId('warmup-toggle').first().click()
    await expect(tree.nodes).toHaveCount(3)
    await expect(tree.node(MAIN_TITLE)).toBeVisible()
    await expect(tree.root.locator('[data-testid="tree-node"][data-kind="sub-agent"]')).toHaveCount(2)
    const main = await tree.sessionId(MAIN_TITLE)
    await expect(tree.edges('sub-agent')).toHaveCount(2)
    for (const agent of await tree.root.locator('[data-testid="tree-node"][data-kind="sub-agent"]').all()) {
      await expect(tree.edge('sub-agent', main, (await agent.getAttribute('data-session-id')) ?? '')).toHaveCount(1)
    }
    await expect(tree.node(MAIN_TITLE)).toContainText('3 turns')
    await snapshot(page, testInfo, '40-codemie-graph')

    // Open the session from the graph; turn 2 is the one that edited hello.py.
    await tree.node(MAIN_TITLE).click()
    await expect(tree.node(MAIN_TITLE)).toHaveClass(/selected/)
    await expect(workspace.transcript.getByTestId('message-user').filter({ hasText: 'update py with one liner comment' })).toBeVisible()
    const editTurn = turnHeader(workspace, EDIT_TURN)
    const filesToggle = editTurn.getByTestId('turn-files-toggle')
    await expect(filesToggle).toContainText('1 file changed')
    await filesToggle.click()
    const helloRow = editTurn.getByTestId('turn-file').filter({ hasText: 'hello.py' })
    await expect(helloRow).toContainText('modified')
    await expect(helloRow).toContainText('+1 −0')
    await snapshot(page, testInfo, '41-codemie-turn-files')

    await helloRow.click()
    const fileDialog = page.getByTestId('file-dialog')
    await expect(fileDialog.getByRole('heading', { name: 'hello.py' })).toBeVisible()
    await fileDialog.getByTestId('diff-mode-unified').click()
    const unified = fileDialog.getByTestId('diff-unified')
    await expect(unified.locator('[data-kind="add"]')).toHaveCount(1)
    await expect(unified.locator('[data-kind="add"]')).toContainText(ADDED_LINE)
    await expect(unified.locator('[data-kind="del"]')).toHaveCount(0)
    await snapshot(page, testInfo, '42-codemie-diff')
    await page.keyboard.press('Escape')
    await expect(fileDialog).toHaveCount(0)

    // Rewind to before turn 2: hello.py loses the comment, on disk.
    const rewindButton = editTurn.getByRole('button', { name: 'Rewind files to before this turn' })
    await rewindButton.click()
    const dialog = page.getByTestId('rewind-dialog')
    await expect(dialog.getByRole('heading', { name: `Rewind files to before turn ${EDIT_TURN}` })).toBeVisible()
    const restore = dialog.locator('[data-testid="plan-group"][data-action="restore"] [data-testid="plan-item"]')
    await expect(restore).toHaveCount(1)
    await expect(restore).toHaveAttribute('data-path', 'hello.py')
    await expect(dialog.locator('[data-testid="plan-item"][data-conflict="true"]')).toHaveCount(0)
    await expect(dialog.getByTestId('rewind-apply')).toHaveText('Rewind 1 file')
    expect(readFileSync(hello, 'utf8')).toBe(after)
    await snapshot(page, testInfo, '43-codemie-rewind-preview')
    await dialog.getByTestId('rewind-apply').click()
    await expect(dialog.getByTestId('rewind-result')).toContainText(`Rewound 1 file to before turn ${EDIT_TURN}`)
    expect(readFileSync(hello, 'utf8')).toBe(fixture.helloBefore)
    expect(readFileSync(join(fixture.workspace, 'hello.md'), 'utf8')).toBe(fixture.finalFiles.get('hello.md'))
    await snapshot(page, testInfo, '44-codemie-rewound')

    // Undo: the edit is back.
    await dialog.getByTestId('rewind-undo').click()
    await expect(dialog.getByRole('heading', { name: 'Undo a rewind' })).toBeVisible()
    await expect(dialog.locator('[data-testid="plan-item"][data-path="hello.py"]')).toBeVisible()
    await dialog.getByTestId('rewind-apply').click()
    await expect(dialog.getByTestId('rewind-result')).toContainText('Undone: 1 file put back')
    expect(readFileSync(hello, 'utf8')).toBe(after)
    await snapshot(page, testInfo, '45-codemie-undone')
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)

    // Someone edits hello.py after the agent: rewinding it is now a conflict, skipped by default.
    const mine = `${after}print("my own line")\n`
    writeFileSync(hello, mine)
    await rewindButton.click()
    const conflict = dialog.locator('[data-testid="plan-item"][data-conflict="true"]')
    await expect(conflict).toHaveCount(1)
    await expect(conflict).toHaveAttribute('data-path', 'hello.py')
    await expect(conflict).toContainText('Changed since the agent last wrote it')
    await expect(conflict.getByTestId('conflict-choice')).toHaveValue('skip')
    await expect(dialog.getByTestId('rewind-apply')).toBeDisabled()
    await expect(dialog.getByTestId('rewind-apply')).toHaveText('Nothing to apply')
    await snapshot(page, testInfo, '46-codemie-conflict')
    // Keep both: the agent's earlier version goes in, the user's is kept beside it.
    await conflict.getByTestId('conflict-choice').selectOption('keep-both')
    await expect(dialog.getByTestId('rewind-apply')).toHaveText('Rewind 1 file')
    await dialog.getByTestId('rewind-apply').click()
    await expect(dialog.getByTestId('result-kept')).toContainText('hello.py.retrace-kept')
    expect(readFileSync(hello, 'utf8')).toBe(fixture.helloBefore)
    expect(readFileSync(join(fixture.workspace, 'hello.py.retrace-kept'), 'utf8')).toBe(mine)
    expect(existsSync(join(fixture.workspace, 'hello.js'))).toBe(false)
    expect(consoleErrors).toEqual([])
  })

  test('fork from a turn → a new node, selected; a fresh fork has nothing to merge; a Claude Code fork is merged back', async ({ page, consoleErrors }, testInfo) => {
    const { workspace, tree } = await openWorkspace(page, server, fixture.workspace)
    await tree.open()
    await page.getByTestId('warmup-toggle').first().click()
    await expect(tree.nodes).toHaveCount(3)
    const mainNode = tree.root.locator('[data-testid="tree-node"][data-kind="main"]')
    await mainNode.click()
    const main = (await mainNode.getAttribute('data-session-id')) ?? ''
    await expect(workspace.transcript.getByTestId('message-user').filter({ hasText: 'update py with one liner comment' })).toBeVisible()

    await turnHeader(workspace, EDIT_TURN).getByRole('button', { name: 'Fork from here' }).click()
    const fork = page.getByTestId('fork-dialog')
    const name = fork.getByTestId('fork-name')
    await expect(name).toHaveValue(`${MAIN_TITLE} (branch at turn ${EDIT_TURN})`)
    await name.fill('Try a docstring instead')
    await snapshot(page, testInfo, '47-codemie-fork')
    await fork.getByTestId('fork-submit').click()
    await expect(fork).toHaveCount(0)

    // The branch is a new node in the graph, joined to the session by a fork edge, and selected.
    await expect(tree.nodes).toHaveCount(4)
    const branchNode = tree.node('Try a docstring instead')
    await expect(branchNode).toBeVisible()
    await expect(branchNode).toHaveAttribute('data-kind', 'branch')
    await expect(branchNode).toHaveClass(/selected/)
    await expect(mainNode).not.toHaveClass(/selected/)
    const branch = await tree.sessionId('Try a docstring instead')
    await expect(tree.edge('fork', main, branch)).toHaveCount(1)
    const header = workspace.transcript.locator('.transcript-header')
    await expect(header.getByRole('heading', { name: 'Try a docstring instead' })).toBeVisible()
    await snapshot(page, testInfo, '48-codemie-forked')

    // A branch forked in Retrace has no messages of its own, so there is nothing to merge yet,
    // and the dialog says so (the UI cannot add messages to a branch).
    await header.getByTestId('merge-into-parent').click()
    const merge = page.getByTestId('merge-dialog')
    await expect(merge.getByTestId('merge-nothing')).toBeVisible()
    await expect(merge.getByTestId('merge-submit')).toHaveCount(0)
    await snapshot(page, testInfo, '49-codemie-merge-nothing')
    await merge.getByRole('button', { name: 'Close' }).click()
    await expect(merge).toHaveCount(0)

    // Meanwhile the user forks the session in Claude Code (`--fork-session`) at the end of turn 1
    // and goes on there: a new session file that starts with a copy of the parent's lines and
    // marks the rest `forkedFrom`. The open workspace picks it up live as a branch.
    const mainFile = readdirSync(join(fixture.home.root, 'projects', encodeProjectFolder(fixture.workspace))).find((name) => !name.startsWith('agent-')) ?? ''
    const parentLines = readFileSync(join(fixture.home.root, 'projects', encodeProjectFolder(fixture.workspace), mainFile), 'utf8').split('\n')
    const forkPointIndex = parentLines.findIndex((line) => line.includes('Done! I\'ve created three files'))
    const forkPoint = (JSON.parse(parentLines[forkPointIndex] ?? '{}') as { uuid: string }).uuid
    const claudeFork = fixture.home.session(fixture.workspace)
    claudeFork.raw(parentLines.slice(0, forkPointIndex + 1).join('\n'))
    claudeFork.forkedFrom = { sessionId: mainFile.replace(/\.jsonl$/, ''), messageUuid: forkPoint }
    claudeFork.prompt('add a docstring to main() instead of a comment')
    claudeFork.say('Added a docstring to `main()` in hello.py.')

    // The importer names a fork after its own first prompt, not the parent's copied one.
    const claudeBranchNode = tree.root.locator('[data-testid="tree-node"][data-kind="branch"]').filter({ hasText: 'add a docstring to main() instead of a comment' })
    await expect(claudeBranchNode).toHaveCount(1, { timeout: 10_000 })
    await expect(tree.nodes).toHaveCount(5)
    const claudeBranch = (await claudeBranchNode.getAttribute('data-session-id')) ?? ''
    await expect(tree.edge('fork', main, claudeBranch)).toHaveCount(1)
    await claudeBranchNode.click()
    await expect(claudeBranchNode).toHaveClass(/selected/)
    await header.getByTestId('merge-into-parent').click()
    await expect(merge.getByTestId('merge-mode-append')).toBeChecked()
    await expect(merge).toContainText('This branch has 2 messages of its own')
    await snapshot(page, testInfo, '50-codemie-merge')
    await merge.getByTestId('merge-submit').click()
    await expect(merge.getByTestId('merge-result')).toContainText(`Merged into “${MAIN_TITLE}” (append)`)
    await merge.getByTestId('merge-open-parent').click()
    await expect(merge).toHaveCount(0)

    // The parent is open again, with the branch's messages after a merge marker; the graph
    // draws the merge.
    await expect(header.getByRole('heading', { name: MAIN_TITLE })).toBeVisible()
    await expect(mainNode).toHaveClass(/selected/)
    await expect(workspace.transcript).toContainText(`Merged branch "add a docstring to main() instead of a comment" (append)`)
    await expect(workspace.transcript.getByTestId('message-user').last()).toContainText('add a docstring to main() instead of a comment')
    await expect(tree.edge('merge', claudeBranch, main)).toHaveCount(1)
    await snapshot(page, testInfo, '51-codemie-merged')
    expect(consoleErrors).toEqual([])
  })
})
