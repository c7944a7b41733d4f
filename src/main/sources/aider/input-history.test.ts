import { copyFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { folderListing } from '../testing/folder-listing'
import { contractCaller, importTestbed, type ContractCall } from '../testing/import-testbed'
import { readInputHistory } from './input-history'
import { historySessions } from './read-history'

const SET = join(FIXTURES, 'aider', 'official')
const SPINNER = 'Use the Spinner instead of the inlined custom spinner'

/** One input as prompt_toolkit's FileHistory.store_string writes it (`str(datetime.now())`). */
function stored(stamp: string, text: string): string {
  return `\n# ${stamp}\n${text.split('\n').map((line) => `+${line}\n`).join('')}`
}

/** The pasted prompt of the run of 2024-08-06 10:25:14, as typed: its `#### ` lines, markup removed. */
function pastedPrompt(): string {
  const text = readFileSync(join(SET, 'chat-history.md'), 'utf8')
  const run = text.slice(text.indexOf('# aider chat started at 2024-08-06 10:25:14'))
  const first = run.split('\n').findIndex((line) => line.startsWith('#### '))
  const lines = run.split('\n').slice(first)
  const end = lines.findIndex((line) => !line.startsWith('#### '))
  return lines.slice(0, end).map((line) => line.slice(5).replace(/ {2}$/, '')).join('\n')
}

/** Local time, as Aider and prompt_toolkit write it. */
const at = (day: number, hour: number, minute: number, second: number, ms = 0) => new Date(2024, 7, day, hour, minute, second, ms).getTime()

describe('.aider.input.history (prompt_toolkit FileHistory)', () => {
  it('reads each input with its stamp, lines of one input together', () => {
    const entries = readInputHistory(stored('2024-08-05 19:33:45.123456', 'one') + stored('2024-08-05 19:36:02', 'two\n\nlines') + '\n# not a time\n+three\n')
    expect(entries).toEqual([
      { time: at(5, 19, 33, 45, 123), text: 'one' },
      { time: at(5, 19, 36, 2), text: 'two\n\nlines' },
      { time: undefined, text: 'three' }
    ])
  })

  it('gives no run an entry two runs could both claim', () => {
    const history = Buffer.from('\n# aider chat started at 2024-08-05 10:00:00\n\n#### /ex  \n\n# aider chat started at 2024-08-05 10:05:00\n\n#### /ex  \n')
    const { sessions } = historySessions(history, readInputHistory(stored('2024-08-05 10:05:00.500000', '/ex')))
    const prompts = sessions.flatMap((session) => session.records.filter((record) => record.kind === 'message' && record.role === 'user'))
    expect(prompts.map((record) => record.kind === 'message' && record.createdAt)).toEqual([at(5, 10, 0, 0), at(5, 10, 5, 0)])
    // Alone in one run's span, it is that run's.
    const alone = historySessions(history, readInputHistory(stored('2024-08-05 10:06:00', '/ex'))).sessions[1]?.records.find((record) => record.kind === 'message' && record.role === 'user')
    expect(alone?.kind === 'message' && alone.createdAt).toBe(at(5, 10, 6, 0))
  })
})

describe('importing Aider\'s real chat history with an input history beside it', () => {
  const { tempDir, runtime } = importTestbed('retrace-aider-input-')

  const INPUTS = [
    // A day before the run: outside its span, not its entry.
    stored('2024-08-04 09:00:00.000001', SPINNER),
    stored('2024-08-05 19:33:45.123456', SPINNER),
    stored('2024-08-05 19:36:02', '/diff'),
    // `/ex` was not stored (Aider quit): that prompt keeps the run's time.
    // The run of 20:39:59 has "hi" twice (prompt_toolkit stores a repeat once): which is whose is in doubt.
    stored('2024-08-05 20:40:03.500000', 'hi'),
    stored('2024-08-06 10:26:40.250000', pastedPrompt())
  ].join('')

  async function importWith(call: ContractCall, workspace: string) {
    const opened = await call('workspaces.open', { path: workspace })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['aider'] })
    const sessions = (await call('sessions.list', { workspaceId: opened.id, source: 'aider' })).items
    /** The turns of the run that started at that time (titles repeat: "hi"). */
    const promptTimes = async (started: number) => {
      const session = sessions.find((each) => each.createdAt === started)
      const messages = (await call('transcript.page', { sessionId: session?.id ?? '', limit: 500 })).items
      return messages.filter((message) => message.turn > 0).map((message) => [message.turn, message.role, message.createdAt])
    }
    return { report, sessions, promptTimes }
  }

  it('gives prompts their exact times where an entry matches without doubt, the run\'s time elsewhere', async () => {
    const workspace = tempDir()
    copyFileSync(join(SET, 'chat-history.md'), join(workspace, '.aider.chat.history.md'))
    writeFileSync(join(workspace, '.aider.input.history'), INPUTS)
    const fixtureBefore = folderListing(SET)
    const before = folderListing(workspace)
    const { report, sessions, promptTimes } = await importWith(contractCaller(runtime({})), workspace)
    expect(report).toMatchObject({ files: 1, sessions: 92 })
    expect(folderListing(workspace)).toEqual(before)
    expect(folderListing(SET)).toEqual(fixtureBefore)

    // The prompt and its answer and output at the time it was typed; /diff too; /ex at the run's start.
    expect(await promptTimes(at(5, 19, 33, 32))).toEqual([
      [1, 'user', at(5, 19, 33, 45, 123)],
      [1, 'assistant', at(5, 19, 33, 45, 123)],
      [1, 'system', at(5, 19, 33, 45, 123)],
      [2, 'user', at(5, 19, 36, 2)],
      [3, 'user', at(5, 19, 33, 32)]
    ])
    expect(sessions.find((session) => session.title === SPINNER)?.createdAt).toBe(at(5, 19, 33, 32))
    const hi = (await promptTimes(at(5, 20, 39, 59))).filter(([, role]) => role === 'user')
    expect(hi).toEqual([
      [1, 'user', at(5, 20, 39, 59)],
      [2, 'user', at(5, 20, 39, 59)]
    ])
    // A pasted prompt of 75 lines (counted apart with awk), stored as one entry of `+` lines.
    const pastedTimes = await promptTimes(at(6, 10, 25, 14))
    expect(pastedPrompt().split('\n')).toHaveLength(75)
    expect(pastedTimes[0]).toEqual([1, 'user', at(6, 10, 26, 40, 250)])
  })

  it('imports the runs again when the input history comes later', async () => {
    const workspace = tempDir()
    copyFileSync(join(SET, 'chat-history.md'), join(workspace, '.aider.chat.history.md'))
    const call = contractCaller(runtime({}))
    await importWith(call, workspace)
    writeFileSync(join(workspace, '.aider.input.history'), INPUTS)
    const { report, promptTimes } = await importWith(call, workspace)
    // The two runs that gained times; the others are unchanged.
    expect(report).toMatchObject({ files: 1, sessions: 2 })
    expect((await promptTimes(at(5, 19, 33, 32)))[0]).toEqual([1, 'user', at(5, 19, 33, 45, 123)])
  })
})
