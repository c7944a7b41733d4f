import { createHash } from 'node:crypto'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, snapshot, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { SessionTreeView } from '../pages/session-tree'
import { WorkspaceView } from '../pages/workspace-view'
import { FIXTURES } from '../../src/main/sources/testing/claude-home'

// One project that three of the newer agents worked in: Aider (its chat history in the project,
// fixtures/aider/official, real), Gemini CLI (a real recording, fixtures/gemini-cli/codemie, in
// the project's folder under ~/.gemini/tmp) and Copilot CLI (session-state built from its writer,
// fixtures/copilot-cli, its recorded cwd moved to the project). Opening the folder shows all three
// in one graph, and the agents' files are only read.
const COPILOT_MAIN = '5d0f4b7e-2c41-4f7a-9a55-0c9e3f6b1a21'
const GEMINI_FILE = 'session-2026-01-16T11-01-file-ops-37b7abef.json'

/** Gemini CLI names a project's folder by the SHA-256 of its path. */
const projectHash = (path: string): string => createHash('sha256').update(path).digest('hex')

/** Every file under `root` with its size and content hash: equal before and after means nothing was written. */
function folderListing(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((name) => {
      const path = join(root, name)
      return statSync(path).isFile() ? `${name} ${createHash('sha256').update(readFileSync(path)).digest('hex')}` : `${name}/`
    })
}

function threeAgentsProject() {
  const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-three-'))
  const project = join(root, 'project')
  mkdirSync(project)
  const workspace = realpathSync(project)
  // Aider: the first runs of its own development history (cut at a run's header).
  const history = readFileSync(join(FIXTURES, 'aider', 'official', 'chat-history.md'), 'utf8')
  const headers = [...history.matchAll(/^# aider chat started at /gm)].map((match) => match.index)
  writeFileSync(join(project, '.aider.chat.history.md'), history.slice(0, headers[6]))
  // Gemini CLI: the project's folder is the SHA-256 of its path.
  const gemini = join(root, 'gemini-home')
  const chats = join(gemini, '.gemini', 'tmp', projectHash(workspace), 'chats')
  mkdirSync(chats, { recursive: true })
  cpSync(join(FIXTURES, 'gemini-cli', 'codemie', 'gemini', GEMINI_FILE), join(chats, GEMINI_FILE))
  // Copilot CLI: one session (and its sub-agent) recorded in this project.
  const copilot = join(root, 'copilot-home')
  cpSync(join(FIXTURES, 'copilot-cli', 'writer-1.0', 'session-state'), join(copilot, 'session-state'), { recursive: true })
  for (const name of ['events.jsonl', 'workspace.yaml']) {
    const path = join(copilot, 'session-state', COPILOT_MAIN, name)
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll('/home/dev/notes-app', workspace))
  }
  return { root, project, gemini, copilot }
}

test('a project three new agents worked in: Aider, Gemini CLI and Copilot CLI sessions in one graph, their files untouched', async ({ page, consoleErrors }, testInfo) => {
  const fx = threeAgentsProject()
  const server = await startRetraceServer([], { GEMINI_CLI_HOME: fx.gemini, COPILOT_HOME: fx.copilot })
  try {
    const before = folderListing(fx.root)
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openPath(fx.project)
    const view = new WorkspaceView(page)
    await view.root.waitFor()

    const tree = new SessionTreeView(page)
    await tree.open()
    const sources = (source: string) => tree.nodes.filter({ has: page.locator('.tree-node-source', { hasText: new RegExp(`^${source}$`) }) })
    await expect(sources('gemini-cli'), `server output:\n${server.output()}`).toHaveCount(1)
    await expect(sources('copilot-cli')).toHaveCount(2) // the session and its sub-agent
    await expect.poll(() => sources('aider').count()).toBeGreaterThanOrEqual(2)
    const aider = await sources('aider').count()
    await expect(tree.nodes).toHaveCount(1 + 2 + aider)
    await expect(tree.edges('sub-agent')).toHaveCount(1)
    await snapshot(page, testInfo, '86-three-new-sources')

    // Each reads as its agent wrote it: Gemini's file-ops session has its five turns.
    await tree.nodes.filter({ hasText: 'show tools' }).click()
    await expect(view.transcript).toContainText('5 turns')
    await expect(view.transcript.getByTestId('tool-call').first()).toBeVisible()
    expect(folderListing(fx.root)).toEqual(before)
    expect(consoleErrors).toEqual([])
  } finally {
    await server.stop()
    rmSync(fx.root, { recursive: true, force: true })
  }
})
