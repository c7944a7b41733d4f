import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, snapshot, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'
import { FIXTURES } from '../../src/main/sources/testing/claude-home'

// A project folder holding a real LangGraph checkpoint database (fixtures/langgraph/travai,
// MIT, see its PROVENANCE.txt): opening the folder shows its threads as sessions.
test('a LangGraph project: each thread a session, its tool calls and answers in the transcript, the database untouched', async ({ page, consoleErrors }, testInfo) => {
  const root = mkdtempSync(join(tmpdir(), 'retrace-e2e-langgraph-'))
  const project = join(root, 'travai')
  mkdirSync(project)
  copyFileSync(join(FIXTURES, 'langgraph/travai/checkpoints.sqlite'), join(project, 'checkpoints.sqlite'))
  const server = await startRetraceServer([])
  try {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openPath(project)
    const view = new WorkspaceView(page)
    await expect(view.root).toBeVisible()
    await expect(view.sessionRows, `server output:\n${server.output()}`).toHaveCount(2)
    await view.openSession('Hello welcome')
    await expect(view.transcript).toContainText('6 turns')
    await expect(view.transcript.getByTestId('message-user').first()).toContainText('Hello welcome')
    await expect(view.transcript.getByTestId('tool-call').first()).toContainText('memvid_ask')
    await snapshot(page, testInfo, '80-langgraph-thread')
    // Read from a copy: nothing was written beside the database.
    expect(readdirSync(project)).toEqual(['checkpoints.sqlite'])
    expect(consoleErrors).toEqual([])
  } finally {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
})
