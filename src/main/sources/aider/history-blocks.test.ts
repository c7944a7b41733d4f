import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { MessageRecord } from '../records'
import { FIXTURES } from '../testing/claude-home'
import { splitHistory } from './history-blocks'
import { historySessions } from './read-history'

const HISTORY = readFileSync(join(FIXTURES, 'aider', 'official', 'chat-history.md'))

describe('telling Aider\'s prompts, output and answers apart', () => {
  it('keeps every usage report of the real history as Aider\'s output, even one whose Cost is on the next line', () => {
    const reports = HISTORY.toString('utf8').match(/^> Tokens: /gm) ?? []
    expect(reports).toHaveLength(135)
    const blocks = splitHistory(HISTORY.toString('utf8')).flatMap((session) => session.blocks)
    const usageLines = blocks.flatMap((block) => block.lines.filter((line) => /^>? ?Tokens: /.test(line)).map(() => block.kind))
    expect(usageLines).toEqual(Array<string>(135).fill('tool'))
    // Each becomes usage: on the answer it measures, or apart when the answer is not in that run.
    const records = historySessions(HISTORY).sessions.flatMap((session) => session.records)
    const onAnswers = records.filter((record): record is MessageRecord => record.kind === 'message' && record.usage !== undefined)
    const apart = records.filter((record) => record.kind === 'usage')
    expect(onAnswers.length + apart.length).toBe(135)
    expect(onAnswers.every((record) => record.role === 'assistant')).toBe(true)
  })

  it('reads a message of several lines as one block of output, blank lines included (--show-repo-map)', () => {
    const text = '\n# aider chat started at 2024-08-05 20:40:10\n\n> aider --show-repo  \n> Here are summaries of some files.\n\nLICENSE.txt\n\naider/args.py:\n⋮...  \n\n#### hi  \n\nHello!\n\n> Tokens: 66 sent, 97 received.\nCost: $0.01 message, $0.01 session.  \n'
    const [session] = splitHistory(text)
    expect(session?.blocks.map((block) => [block.kind, block.lines])).toEqual([
      ['tool', ['aider --show-repo', 'Here are summaries of some files.', '', 'LICENSE.txt', '', 'aider/args.py:', '⋮...']],
      ['user', ['hi']],
      ['assistant', ['Hello!']],
      ['tool', ['Tokens: 66 sent, 97 received.', 'Cost: $0.01 message, $0.01 session.']]
    ])
  })
})
