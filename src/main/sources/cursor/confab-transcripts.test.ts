import { createHash } from 'node:crypto'
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { contractCaller, importTestbed } from '../testing/import-testbed'
import { projectSlug } from './cli-discover'

const { tempDir, runtime } = importTestbed('retrace-cursor-confab-')
const SET = join(FIXTURES, 'cursor/confab-transcripts')
const MAIN = '9b0f3c1e-2a4d-4e5f-8a6b-7c8d9e0f1a2b'
const SUB = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f'
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

describe("importing Confab's sanitized Cursor transcripts (main thread and sub-agent)", () => {
  it('shows prompts as turns, every tool call, the failed turn, and the sub-agent below its parent', async () => {
    const workspace = tempDir()
    const home = tempDir()
    const session = join(home, '.cursor/projects', projectSlug(workspace), 'agent-transcripts', MAIN)
    mkdirSync(join(session, 'subagents'), { recursive: true })
    const main = join(session, `${MAIN}.jsonl`)
    const sub = join(session, 'subagents', `${SUB}.jsonl`)
    copyFileSync(join(SET, 'main.jsonl'), main)
    copyFileSync(join(SET, 'subagent.jsonl'), sub)
    const before = [sha(main), sha(sub)]
    const call = contractCaller(runtime({}, { env: { HOME: home } }))
    const opened = await call('workspaces.open', { path: workspace })
    const imported = await call('imports.run', { workspaceId: opened.id, sources: ['cursor'] })
    expect(imported).toMatchObject({ sessions: 2, skipped: [] })
    // Its three file changes (StrReplace, Write, Delete) are calls without results: each reported.
    const why = "Cursor's agent transcript keeps the call, not its result nor the file before or after it"
    expect(imported.changesNotJournaled.map((entry) => entry.reason)).toEqual([
      `file change not captured (${why}): internal/api/session_handler.go`,
      `file change not captured (${why}): internal/api/session_handler_test.go`,
      `file change not captured (${why}): internal/api/legacy_validate.go`
    ])

    const tree = await call('sessions.tree', { workspaceId: opened.id })
    const child = tree.nodes.find((node) => node.kind === 'sub-agent')
    const parent = tree.nodes.find((node) => node.id === child?.parentId)
    expect(parent).toBeDefined()
    const sessions = (await call('sessions.list', { workspaceId: opened.id })).items
    expect(sessions.find((item) => item.id === parent?.id)?.turnCount).toBe(3)
    expect(sessions.find((item) => item.id === child?.id)?.turnCount).toBe(1)

    const page = await call('transcript.page', { sessionId: parent?.id ?? '', limit: 200 })
    const count = (role: string) => page.items.filter((message) => message.role === role).length
    expect([count('user'), count('assistant'), count('tool_call'), count('tool_result'), count('system')]).toEqual([3, 7, 13, 0, 1])
    expect(page.items[0]?.content).toBe('Add input validation to the session handler and write a test for it.')
    expect(page.items.some((message) => message.content.includes('[REDACTED]'))).toBe(false)
    expect(page.items.at(-1)?.content).toBe("The turn ended with an error: You've hit your usage limit. Upgrade your plan for more agent usage.")
    const edit = page.items.find((message) => message.toolName === 'StrReplace')
    expect(edit?.toolInput).toMatchObject({ path: 'internal/api/session_handler.go' })

    const subPage = await call('transcript.page', { sessionId: child?.id ?? '', limit: 200 })
    expect(subPage.items.filter((message) => message.role === 'tool_call').length).toBe(7)
    expect([sha(main), sha(sub)]).toEqual(before)
  })
})
