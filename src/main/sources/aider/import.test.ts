import { appendFileSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Message } from '../../../shared/contract'
import { FIXTURES } from '../testing/claude-home'
import { folderListing } from '../testing/folder-listing'
import { contractCaller, importTestbed, type ContractCall } from '../testing/import-testbed'

const SET = join(FIXTURES, 'aider', 'official')
const SPINNER = 'Use the Spinner instead of the inlined custom spinner'

async function transcript(call: ContractCall, sessionId: string): Promise<Message[]> {
  return (await call('transcript.page', { sessionId, limit: 500 })).items
}

describe('importing Aider\'s real chat history', () => {
  const { tempDir, runtime } = importTestbed('retrace-aider-')

  /** A workspace holding a copy of the fixture under Aider's default name. */
  async function openCopy(env: NodeJS.ProcessEnv = {}) {
    const workspace = tempDir()
    copyFileSync(join(SET, 'chat-history.md'), join(workspace, '.aider.chat.history.md'))
    const call = contractCaller(runtime({}, { env }))
    const opened = await call('workspaces.open', { path: workspace })
    return { workspace, call, opened }
  }

  it('makes a session of each run, a turn of each prompt, and leaves the files as they were', async () => {
    const { workspace, call, opened } = await openCopy()
    const fixtureBefore = folderListing(SET)
    const before = folderListing(workspace)
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['aider'] })
    // 189 headers + the preamble: 90 runs with a prompt; 2 with an answer but no prompt (one to
    // a prompt logged under another run's header, as two Aider processes wrote into one file; one
    // to a traceback Aider added to the chat); 98 started and quit, or ran --lint, --commit…
    expect(report).toMatchObject({ files: 1, sessions: 92 })
    expect(folderListing(workspace)).toEqual(before)
    expect(folderListing(SET)).toEqual(fixtureBefore)
    const sessions = (await call('sessions.list', { workspaceId: opened.id, source: 'aider' })).items
    expect(sessions).toHaveLength(92)
    // Consecutive `#### ` lines are one prompt: 287 prompts (counted apart with a regex over the file).
    expect(sessions.reduce((sum, session) => sum + session.turnCount, 0)).toBe(287)
    // A session's model is its answers' (the banner's `Models: <main> with …`): 57 runs name
    // Sonnet last, 44 of them have an answer (the others only ran /commands).
    expect(sessions.filter((session) => session.model === 'claude-3-5-sonnet-20240620')).toHaveLength(44)
    expect(new Set(sessions.map((session) => session.model))).toContain('openrouter/openai/gpt-4o-mini')

    const spinner = sessions.find((session) => session.title === SPINNER)
    expect(spinner).toMatchObject({ turnCount: 3, model: 'claude-3-5-sonnet-20240620' })
    expect(new Date(spinner?.createdAt ?? 0).toISOString()).toBe(new Date(2024, 7, 5, 19, 33, 32).toISOString())
    // The file starts inside a run whose header was cut off: it began no later than the first header.
    const fixErrors = sessions.filter((session) => session.title === '# Fix any errors below, if possible.')
    expect(fixErrors.map((session) => session.createdAt)).toContain(new Date(2024, 7, 5, 19, 33, 2).getTime())
    expect(Math.max(...sessions.map((session) => session.createdAt))).toBeLessThan(new Date(2025, 0, 1).getTime())
    // Its one answer: "Tokens: 5,244 sent, 604 received. Cost: $0.02 request, $0.02 session."
    expect(spinner?.usage).toEqual({ inputTokens: 5244, outputTokens: 604, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.02 })
    const messages = await transcript(call, spinner?.id ?? '')
    expect(messages.map((message) => [message.turn, message.role])).toEqual([
      [0, 'system'],
      [1, 'user'],
      [1, 'assistant'],
      [1, 'system'],
      [2, 'user'],
      [3, 'user']
    ])
    expect(messages[0]?.content).toMatch(/^\/Users\/gauthier\/Projects\/aider\/\.venv\/bin\/aider aider\/utils\.py\nAider v0\.47\.2-dev\n/)
    expect(messages[2]?.content).toMatch(/^Certainly! I'll modify the `run_install` function[\s\S]*>>>>>>> REPLACE\n```\n\nThis change replaces/)
    expect(messages[3]?.content).toBe(
      'Tokens: 5,244 sent, 604 received. Cost: $0.02 request, $0.02 session.\nApplied edit to aider/utils.py\nCommit fd43cd4 feat: Use the Spinner instead of the inlined custom spinner\nYou can use /undo to revert and discard commit fd43cd4.'
    )
    // Commands are prompts too: `/diff` and `/ex` (Aider logs no output of theirs here).
    expect(messages.slice(4).map((message) => message.content)).toEqual(['/diff', '/ex'])
    expect(messages[2]).toMatchObject({ model: 'claude-3-5-sonnet-20240620', usage: { outputTokens: 604, costUsd: 0.02 } })

    // The history keeps no file contents: an edit Aider applied to a file it did not create in
    // that run is reported as not captured (its content before is unknown), never guessed.
    const notCaptured = report.changesNotJournaled.filter((skip) => skip.reason.startsWith('file change not captured (its earlier content is unknown)'))
    expect(notCaptured.length).toBeGreaterThan(0)
    expect(notCaptured.some((skip) => skip.reason.endsWith(': aider/utils.py'))).toBe(true)
    // Their lines were imported: none of them is counted as a skipped line.
    expect(report.skipped.some((skip) => skip.reason.startsWith('file change'))).toBe(false)
    expect(report.fileChanges).toBe(0)
  })

  it('imports again only the run Aider appended to, and the one it starts next', async () => {
    const { workspace, call, opened } = await openCopy()
    await call('imports.run', { workspaceId: opened.id, sources: ['aider'] })
    const first = (await call('sessions.list', { workspaceId: opened.id, source: 'aider' })).items
    const history = join(workspace, '.aider.chat.history.md')
    appendFileSync(history, '\n#### and one more thing  \n\nDone.\n\n\n# aider chat started at 2024-08-22 10:00:00\n\n> Aider v0.51.2-dev  \n\n#### hello again  \n')
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['aider'] })
    expect(report).toMatchObject({ sessions: 2 })
    const after = (await call('sessions.list', { workspaceId: opened.id, source: 'aider' })).items
    expect(after).toHaveLength(93)
    // Every earlier run kept its id; the last run gained a turn, and the new one is a session.
    expect(after.filter((session) => first.some((known) => known.id === session.id))).toHaveLength(92)
    expect(after.find((session) => session.title === 'hello again')?.turnCount).toBe(1)
  })

  it('reports a damaged header with its reason and imports the rest', async () => {
    const { workspace, call, opened } = await openCopy()
    const history = join(workspace, '.aider.chat.history.md')
    const text = readFileSync(history, 'utf8')
    writeFileSync(history, text.replace('# aider chat started at 2024-08-05 19:33:32', '# aider chat started at yesterday-ish') + '\n#### cut off in the midd')
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['aider'] })
    expect(report.skipped.filter((skip) => skip.reason.includes('unreadable start time "yesterday-ish"'))).toHaveLength(1)
    expect(report.sessions).toBe(92)
    // The damaged run is still there, with its prompts.
    const sessions = (await call('sessions.list', { workspaceId: opened.id, source: 'aider' })).items
    const damaged = sessions.filter((session) => session.title === SPINNER)
    expect(damaged.map((session) => session.turnCount)).toEqual([3])
  })

  it('finds a history file named by AIDER_CHAT_HISTORY_FILE or an .aider.conf.yml', async () => {
    const workspace = tempDir()
    copyFileSync(join(SET, 'chat-history.md'), join(workspace, 'chat.md'))
    writeFileSync(join(workspace, '.aider.conf.yml'), 'model: sonnet\nchat-history-file: "chat.md"  # ours\n')
    const call = contractCaller(runtime({}))
    const opened = await call('workspaces.open', { path: workspace })
    expect(await call('imports.run', { workspaceId: opened.id, sources: ['aider'] })).toMatchObject({ files: 1, sessions: 92 })

    const other = tempDir()
    copyFileSync(join(SET, 'chat-history.md'), join(other, 'elsewhere.md'))
    const byEnv = contractCaller(runtime({}, { env: { AIDER_CHAT_HISTORY_FILE: join(other, 'elsewhere.md') } }))
    const second = await byEnv('workspaces.open', { path: other })
    expect(await byEnv('imports.run', { workspaceId: second.id, sources: ['aider'] })).toMatchObject({ files: 1, sessions: 92 })

    // The home folder's .aider.conf.yml and a relative AIDER_CHAT_HISTORY_FILE: paths of the folder Aider ran in.
    const home = tempDir()
    writeFileSync(join(home, '.aider.conf.yml'), 'chat-history-file: history/aider.md\n')
    const third = tempDir()
    mkdirSync(join(third, 'history'))
    copyFileSync(join(SET, 'chat-history.md'), join(third, 'history', 'aider.md'))
    copyFileSync(join(SET, 'chat-history.md'), join(third, 'relative.md'))
    const byHome = contractCaller(runtime({}, { env: { HOME: home, AIDER_CHAT_HISTORY_FILE: 'relative.md' } }))
    const opened3 = await byHome('workspaces.open', { path: third })
    expect(await byHome('imports.run', { workspaceId: opened3.id, sources: ['aider'] })).toMatchObject({ files: 2, sessions: 184 })
    // Two histories of one workspace keep their sessions apart (keys name the file when not the default).
    expect((await byHome('sessions.list', { workspaceId: opened3.id, source: 'aider', limit: 500 })).items).toHaveLength(184)
  })

  it('reports an "Applied edit" no SEARCH/REPLACE block describes, when the commit is not in the repository', async () => {
    // In a real 2024-08 run, Aider read a fence's language as a file name, created a file
    // "python" and committed it (dca784c): the answer's only block names editblock_coder.py.
    // This workspace is no repository, so nothing but the report says that a file changed.
    const { call, opened } = await openCopy()
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['aider'] })
    expect(report.changesNotJournaled.filter((entry) => entry.reason.includes('SEARCH/REPLACE')).map((entry) => entry.reason)).toEqual([
      'file change not captured (Aider applied an edit the answer holds no SEARCH/REPLACE block for (a whole-file, udiff or architect edit), and no commit of it was found in the repository here): python'
    ])
  })
})
