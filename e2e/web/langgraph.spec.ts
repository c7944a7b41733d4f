import { readdirSync } from 'node:fs'
import { expect, snapshot, test } from '../support/fixtures'
import { agentFolder } from '../support/agent-folder'

// A project folder holding a real LangGraph checkpoint database (fixtures/langgraph/travai,
// MIT, see its PROVENANCE.txt): opening the folder shows its threads as sessions.
test('a LangGraph project: each thread a session, its tool calls and answers in the transcript, the database untouched', async ({ page, consoleErrors }, testInfo) => {
  const agent = await agentFolder('langgraph/travai', 'travai')
  try {
    const before = readdirSync(agent.folder).sort()
    const view = await agent.open(page)
    await expect(view.sessionRows, `server output:\n${agent.server.output()}`).toHaveCount(2)
    await view.openSession('Hello welcome')
    await expect(view.transcript).toContainText('6 turns')
    await expect(view.transcript.getByTestId('message-user').first()).toContainText('Hello welcome')
    await expect(view.transcript.getByTestId('tool-call').first()).toContainText('memvid_ask')
    await snapshot(page, testInfo, '80-langgraph-thread')
    // Read from a copy: nothing was written beside the database.
    expect(readdirSync(agent.folder).sort()).toEqual(before)
    expect(consoleErrors).toEqual([])
  } finally {
    await agent.dispose()
  }
})
