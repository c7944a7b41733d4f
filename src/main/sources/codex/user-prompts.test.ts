import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { MessageRecord, SourceRecord } from '../records'
import { createCodexParser } from './parser'

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/codex', import.meta.url))

/**
 * The sanitised Codex Desktop 0.104 rollouts (fixtures/codex/localpush) and the number of
 * `user_message` events in each: what the peer's golden test asserts as message_count.
 */
const LOCALPUSH: Record<string, number> = {
  'rollout-2026-02-23T12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a.jsonl': 5,
  'rollout-2026-02-23T12-41-04-019c8a4d-8f45-7010-8b5d-7fad920aa6f9.jsonl': 1,
  'rollout-2026-02-23T12-47-42-019c8a53-a0dd-7130-bcd7-95445d84846a.jsonl': 7,
  'rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl': 38,
  'rollout-2026-02-23T13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl': 1,
  'rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl': 1
}
const localpush = (name: string) => join(FIXTURES, 'localpush/sessions/2026/02/23', name)

/** The real codemie rollouts (0.77 exec, 0.125 TUI, 0.128 Desktop). */
const CODEMIE = [
  '2026/01/02/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl',
  '2026/05/11/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl',
  '2026/05/11/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl'
].map((name) => join(FIXTURES, 'codemie/sessions', name))

interface Line {
  text: string
  offset: number
  json: { type: string; payload: { type?: string; role?: string; message?: string; content?: { text?: string }[] } }
}

function linesOf(path: string): Line[] {
  const lines: Line[] = []
  let offset = 0
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (text.trim() !== '') lines.push({ text, offset, json: JSON.parse(text) as Line['json'] })
    offset += Buffer.byteLength(text) + 1
  }
  return lines
}

const isUserEvent = (line: Line) => line.json.type === 'event_msg' && line.json.payload.type === 'user_message'
const isUserItem = (line: Line) => line.json.type === 'response_item' && line.json.payload.type === 'message' && line.json.payload.role === 'user'

function parseAll(lines: { text: string; offset: number }[]): SourceRecord[] {
  const parser = createCodexParser()
  return lines.flatMap((line) => parser.feed(line.text, line.offset))
}

/** Every line fed to a new parser made from the previous one's state, as it went through JSON (an import per line). */
function parseResumingAtEveryLine(lines: { text: string; offset: number }[]): { records: SourceRecord[]; largestState: number } {
  let state: unknown
  let largestState = 0
  const records: SourceRecord[] = []
  for (const line of lines) {
    const parser = createCodexParser(state)
    records.push(...parser.feed(line.text, line.offset))
    const json = JSON.stringify(parser.state())
    largestState = Math.max(largestState, json.length)
    state = JSON.parse(json)
  }
  return { records, largestState }
}

const messages = (records: SourceRecord[]): MessageRecord[] => records.filter((r): r is MessageRecord => r.kind === 'message')
const prompts = (records: SourceRecord[]) => messages(records).filter((m) => m.role === 'user')

/** "[REDACTED_TEXT len=64 sha=7d538904]" and "[REDACTED_MESSAGE len=64 sha=7d538904]" name the same original text. */
const redactedId = (text: string) => /len=\d+ sha=[0-9a-f]+/.exec(text)?.[0]

describe('Codex turns are the user_message events', () => {
  for (const [name, events] of Object.entries(LOCALPUSH)) {
    it(`sanitised Codex Desktop 0.104 ${name.slice(28, 36)}: ${events} turns, one per user_message event`, () => {
      const lines = linesOf(localpush(name))
      expect(lines.filter(isUserEvent)).toHaveLength(events)
      const records = parseAll(lines)
      const turns = prompts(records)
      expect(turns).toHaveLength(events)
      expect(turns.every((t) => t.startsTurn)).toBe(true)
      for (const turn of turns) {
        // Placed at the prompt's item, which the event follows on the next line; the text is the event's.
        const index = lines.findIndex((l) => l.offset === turn.offset)
        const [item, event] = [lines[index]!, lines[index + 1]!]
        expect(isUserItem(item) && isUserEvent(event)).toBe(true)
        expect(turn.content).toBe(event.json.payload.message)
        expect(redactedId(turn.content)).toBe(redactedId(item.json.payload.content![0]!.text!))
      }
      // Every other user item (instructions, environment, context re-sent mid-session, a skill) is context.
      const itemOffsets = new Set(lines.filter(isUserItem).map((l) => l.offset))
      const context = messages(records).filter((m) => m.role === 'system' && itemOffsets.has(m.offset))
      expect(context).toHaveLength(itemOffsets.size - events)
      expect(context.every((m) => !m.startsTurn)).toBe(true)
      // Nothing is lost or doubled: one record per user item line.
      expect(new Set([...context, ...turns].map((m) => m.offset))).toEqual(itemOffsets)
    })
  }

  it('gives the same records when resumed from its saved state at every line, with a small state', () => {
    for (const path of [...Object.keys(LOCALPUSH).map(localpush), ...CODEMIE]) {
      const lines = linesOf(path)
      const { records, largestState } = parseResumingAtEveryLine(lines)
      expect(records, path).toEqual(parseAll(lines))
      expect(largestState, path).toBeLessThan(32_000)
    }
  })
})

const T = '2026-01-01T00:00:00.000Z'
const meta = { timestamp: T, type: 'session_meta', payload: { id: 's-1', cwd: '/work/proj' } }
const userItem = (text: string) => ({ timestamp: T, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } })
const developer = (text: string) => ({ timestamp: T, type: 'response_item', payload: { type: 'message', role: 'developer', content: [{ type: 'input_text', text }] } })
const answer = (text: string) => ({ timestamp: T, type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] } })
const userEvent = (message: string, extra: Record<string, unknown> = {}) => ({ timestamp: T, type: 'event_msg', payload: { type: 'user_message', message, ...extra } })
const taskStarted = { timestamp: T, type: 'event_msg', payload: { type: 'task_started' } }

const objectLines = (objects: unknown[]) => objects.map((o, i) => ({ text: JSON.stringify(o), offset: i * 100 }))
const shape = (records: SourceRecord[]) => messages(records).map((m) => [m.offset / 100, m.role, m.content])

describe('Codex user items and user_message events on made-up lines', () => {
  it('takes the prompt text from the event and its place from the item, whichever is redacted', () => {
    const records = parseAll(
      objectLines([
        meta,
        userItem('[REDACTED]'),
        userEvent('fix the parser'),
        answer('done'),
        userItem('look at this'),
        userEvent('', { images: ['data:image/png;base64,iVBORw0KGgo='] }),
        answer('a cat')
      ])
    )
    expect(shape(records)).toEqual([
      [1, 'user', 'fix the parser'],
      [3, 'assistant', 'done'],
      [4, 'user', 'look at this'],
      [6, 'assistant', 'a cat']
    ])
    expect(prompts(records)[1]!.attachments).toEqual([{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }])
  })

  it('shows unmarked user items with no event as context once the file has events, before or after the prompt', () => {
    const records = parseAll(
      objectLines([meta, userItem('instructions, redacted'), userItem('environment, redacted'), developer('permissions'), taskStarted, userItem('go'), userEvent('go'), userItem('a skill, redacted'), answer('ok')])
    )
    expect(shape(records)).toEqual([
      [1, 'system', 'instructions, redacted'],
      [2, 'system', 'environment, redacted'],
      [3, 'system', 'permissions'],
      [5, 'user', 'go'],
      [7, 'system', 'a skill, redacted'],
      [8, 'assistant', 'ok']
    ])
  })

  it('reads a rollout resumed by a newer Codex: the old part by markers, the new part by events', () => {
    const lines = objectLines([
      meta,
      userItem('<environment_context>\n</environment_context>'),
      userItem('old prompt'),
      answer('old answer'),
      userItem('context re-sent, redacted'),
      userItem('new prompt'),
      userEvent('new prompt'),
      answer('new answer'),
      userItem('unmarked, no event'),
      answer('answer to nothing new')
    ])
    const expected = [
      [1, 'system', '<environment_context>\n</environment_context>'],
      [2, 'user', 'old prompt'],
      [3, 'assistant', 'old answer'],
      [4, 'system', 'context re-sent, redacted'],
      [5, 'user', 'new prompt'],
      [7, 'assistant', 'new answer'],
      [8, 'system', 'unmarked, no event'],
      [9, 'assistant', 'answer to nothing new']
    ]
    expect(shape(parseAll(lines))).toEqual(expected)
    expect(shape(parseResumingAtEveryLine(lines).records)).toEqual(expected)
  })

  it('keeps an event written before its item as the one prompt, and a lone event as a prompt', () => {
    const records = parseAll(objectLines([meta, userEvent('event first'), userItem('event first'), answer('a1'), userEvent('only an event'), answer('a2')]))
    expect(shape(records)).toEqual([
      [1, 'user', 'event first'],
      [3, 'assistant', 'a1'],
      [4, 'user', 'only an event'],
      [5, 'assistant', 'a2']
    ])
  })

  it('treats an event tagged as context, and its item, as context', () => {
    const records = parseAll(objectLines([meta, userItem('redacted environment'), userEvent('redacted environment', { kind: 'environment_context' }), userItem('hi'), userEvent('hi', { kind: 'plain' }), answer('hello')]))
    expect(shape(records)).toEqual([
      [1, 'system', 'redacted environment'],
      [3, 'user', 'hi'],
      [5, 'assistant', 'hello']
    ])
  })
})
