import { cpSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Message } from '../../../shared/contract'
import { FIXTURES } from '../testing/claude-home'
import { contractCaller, importTestbed } from '../testing/import-testbed'
import { folderListing } from '../testing/folder-listing'
import { projectHash } from './discover'

const SAVED = join(FIXTURES, 'gemini-cli', 'writer-saved-chat', 'checkpoint-before%20refactor.json')

describe('chats saved with /chat save', () => {
  const { tempDir, runtime } = importTestbed('retrace-gemini-saved-')

  it('become sessions named after their tag, found in a project folder without recordings; a cut one is reported', async () => {
    const workspace = tempDir()
    const home = tempDir()
    const project = join(home, '.gemini', 'tmp', projectHash(workspace))
    mkdirSync(project, { recursive: true })
    cpSync(SAVED, join(project, 'checkpoint-before%20refactor.json'))
    writeFileSync(join(project, 'checkpoint-cut.json'), '{\n  "history": [\n    {\n')
    const before = folderListing(home)
    const call = contractCaller(runtime({}, { env: { GEMINI_CLI_HOME: home } }))
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['gemini-cli'] })
    expect(report).toMatchObject({ files: 2, sessions: 1 })
    expect(report.skipped.map((s) => [s.file.includes('checkpoint-cut.json'), s.reason])).toEqual([[true, 'Gemini CLI saved chat is not valid JSON (cut short?)']])
    expect(folderListing(home)).toEqual(before)

    const [session] = (await call('sessions.list', { workspaceId: opened.id, source: 'gemini-cli' })).items
    expect([session?.title, session?.messageCount, session?.turnCount]).toEqual(['Saved chat: before refactor', 7, 1])
    const messages: Message[] = (await call('transcript.page', { sessionId: session?.id ?? '', limit: 50 })).items
    expect(messages.map((m) => m.role)).toEqual(['system', 'assistant', 'user', 'reasoning', 'tool_call', 'tool_result', 'assistant'])
    const [toolCall, toolResult] = messages.filter((m) => m.toolCallId === 'list_directory-1755684000000-a1')
    expect([toolCall?.role, toolResult?.role, toolResult?.content]).toEqual(['tool_call', 'tool_result', 'Directory listing for /WORKSPACE:\nnotes.txt\ntodo.txt'])
  })
})
