import { cpSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { folderListing } from '../testing/folder-listing'
import { contractCaller, importTestbed } from '../testing/import-testbed'

const FIXTURE = join(FIXTURES, 'cline')
describe('a Roo Code task whose context was condensed, without ui_messages.json', () => {
  const { tempDir, runtime } = importTestbed('retrace-cline-condensed-')

  it('reads the isSummary message as a compaction and imports the task without usage', async () => {
    const storage = join(tempDir(), 'rooveterinaryinc.roo-cline')
    cpSync(join(FIXTURE, 'roo-code-condensed', 'rooveterinaryinc.roo-cline'), storage, { recursive: true, preserveTimestamps: true })
    const before = folderListing(storage)
    const call = contractCaller(runtime({}, { env: { RETRACE_CLINE_DIRS: storage } }))
    const workspace = await call('workspaces.open', { path: storage })
    expect(await call('imports.run', { workspaceId: workspace.id, sources: ['cline'] })).toMatchObject({ files: 1, sessions: 1, skipped: [] })
    const [session] = (await call('sessions.list', { workspaceId: workspace.id, source: 'cline' })).items
    expect(session?.title).toMatch(/^Bonjour, je suis en train de réinstaller cette machine/)
    expect(session?.usage).toMatchObject({ inputTokens: 0, outputTokens: 0, costUsd: null })
    expect(session?.turnCount).toBe(10)
    const messages = (await call('transcript.page', { sessionId: session?.id ?? '', limit: 500 })).items
    const summaries = messages.filter((message) => message.role === 'compaction_summary')
    expect(summaries).toHaveLength(1)
    expect(summaries[0]?.content).toMatch(/^### 1\. Previous Conversation:\nThe conversation began with a request to restore old tasks/)
    // Roo Code condenses to [first message, summary, what followed]: the summary comes right after
    // the task's prompt and its environment details.
    expect(messages.slice(0, 3).map((message) => message.role)).toEqual(['user', 'system', 'compaction_summary'])
    expect(messages.at(-1)?.inContext).toBe(true)
    expect(folderListing(storage)).toEqual(before)
  })
})
