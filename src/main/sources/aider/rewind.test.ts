import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { folderListing } from '../testing/folder-listing'
import { contractCaller, importTestbed } from '../testing/import-testbed'

const { tempDir, runtime } = importTestbed('retrace-aider-rewind-')

/** aider/io.py `user_input`: each line `#### <line>  `, after a blank line. */
const prompt = (text: string) => `\n#### ${text}  \n`
/** aider/io.py `ai_output`: the answer stripped, between blank lines. */
const answer = (text: string) => `\n${text.trim()}\n\n`
/** aider/io.py `tool_output` / `confirm_ask`: `> <text>  `. */
const output = (...lines: string[]) => lines.map((line) => `> ${line}  \n`).join('')
const block = (path: string, search: string, replace: string) => `${path}\n\`\`\`python\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n\`\`\``

/**
 * A run written the way Aider's writer does (no real history creates and then edits a file in one
 * run: the fixture's edits all touch files that existed before): turn 1 creates hello.py from an
 * empty SEARCH after Aider asked to create it, turn 2 edits it, turn 3 edits a file the history
 * never showed whole (not captured).
 */
const HISTORY = [
  '\n# aider chat started at 2024-08-21 15:14:00\n\n',
  output('/usr/local/bin/aider', 'Aider v0.51.2-dev', 'Main model: claude-3-5-sonnet-20240620 with diff edit format, infinite output'),
  prompt('write a greeting script'),
  answer(`Here it is:\n\n${block('hello.py', '', 'print("hello")\n')}`),
  output('Tokens: 2.5k sent, 1.2k cache write, 120 received. Cost: $0.01 message, $0.01 session.', 'hello.py', 'Create new file? (Y)es/(N)o [Yes]: y', 'Applied edit to hello.py', 'Commit 1a2b3c4 feat: Add greeting script'),
  prompt('make it louder'),
  answer(`Sure:\n\n${block('hello.py', 'print("hello")\n', 'print("HELLO")\n')}`),
  output('Tokens: 2.7k sent, 2.5k cache hit, 80 received. Cost: $0.0032 message, $0.02 session.', 'Applied edit to hello.py', 'Commit 5d6e7f8 feat: Make the greeting louder'),
  prompt('fix the readme'),
  answer(`Done:\n\n${block('README.md', 'helo\n', 'hello\n')}`),
  output('Applied edit to README.md')
].join('')

describe('rewinding a turn of an Aider run', () => {
  it('journals the file Aider created and edited, and rewinds it with undo', async () => {
    const workspace = tempDir()
    writeFileSync(join(workspace, '.aider.chat.history.md'), HISTORY)
    writeFileSync(join(workspace, 'hello.py'), 'print("HELLO")\n')
    writeFileSync(join(workspace, 'README.md'), 'hello\n')
    const historyBefore = folderListing(workspace).filter((line) => line.startsWith('.aider'))
    const call = contractCaller(runtime({}))
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['aider'] })
    expect(report).toMatchObject({ sessions: 1, fileChanges: 2 })
    expect(report.skipped).toEqual([])
    expect(report.changesNotJournaled.map((skip) => skip.reason)).toEqual(['file change not captured (its earlier content is unknown): README.md'])
    expect(folderListing(workspace).filter((line) => line.startsWith('.aider'))).toEqual(historyBefore)

    const [session] = (await call('sessions.list', { workspaceId: opened.id })).items
    const sessionId = session?.id ?? ''
    expect(session).toMatchObject({ turnCount: 3, title: 'write a greeting script', model: 'claude-3-5-sonnet-20240620' })
    // 2.5k sent includes the 1.2k written to the cache; cache hits are apart.
    expect(session?.usage).toMatchObject({ inputTokens: 1300 + 2700, cacheWriteTokens: 1200, cacheReadTokens: 2500, outputTokens: 200 })
    expect((await call('changes.ofTurn', { sessionId, turn: 1 })).items.map((c) => [c.path, c.op])).toEqual([['hello.py', 'create']])
    expect((await call('changes.ofTurn', { sessionId, turn: 2 })).items.map((c) => [c.path, c.op, c.added, c.removed])).toEqual([['hello.py', 'modify', 1, 1]])

    const plan = await call('rewind.plan', { sessionId, turn: 2 })
    expect(plan.items.map((item) => [item.path, item.action, item.conflict])).toEqual([['hello.py', 'restore', null]])
    const rewound = await call('rewind.apply', { sessionId, turn: 2, token: plan.token, choices: [] })
    expect(readFileSync(join(workspace, 'hello.py'), 'utf8')).toBe('print("hello")\n')
    expect(readFileSync(join(workspace, 'README.md'), 'utf8')).toBe('hello\n')
    const undoPlan = await call('rewind.planUndo', { rewindId: rewound.rewindId })
    await call('rewind.undo', { rewindId: rewound.rewindId, token: undoPlan.token, choices: [] })
    expect(readFileSync(join(workspace, 'hello.py'), 'utf8')).toBe('print("HELLO")\n')
  })
})
