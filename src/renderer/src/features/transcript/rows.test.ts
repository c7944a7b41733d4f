import { describe, expect, it } from 'vitest'
import type { Message } from '../../../../shared/contract'
import { buildRows, rowIndexOfSeq, rowIndexOfTurn, turnOfRow, turnStep } from './rows'

let nextId = 1
function message(seq: number, turn: number, role: Message['role'], extra: Partial<Message> = {}): Message {
  return {
    id: nextId++,
    sessionId: 's',
    seq,
    turn,
    role,
    content: '',
    toolName: null,
    toolCallId: null,
    toolInput: null,
    isError: false,
    model: null,
    usage: null,
    createdAt: 1000 + seq,
    inContext: true,
    sourceRef: null,
    ...extra
  }
}

describe('buildRows', () => {
  it('adds a header at each turn and folds results into their calls', () => {
    const messages = [
      message(0, 1, 'user'),
      message(1, 1, 'tool_call', { toolCallId: 't1', toolName: 'Bash' }),
      message(2, 1, 'tool_result', { toolCallId: 't1', isError: true }),
      message(3, 2, 'user')
    ]
    const rows = buildRows(messages)
    expect(rows.map((row) => (row.type === 'message' ? row.message.role : `turn ${row.turn}`))).toEqual(['turn 1', 'user', 'tool_call', 'turn 2', 'user'])
    const call = rows[2]
    expect(call?.type === 'message' && call.result?.seq).toBe(2)
    expect(rowIndexOfSeq(rows, 2)).toBe(2)
  })

  it('keeps a result whose call is not loaded as its own row', () => {
    const rows = buildRows([message(5, 3, 'tool_result', { toolCallId: 'gone' })])
    expect(rows.map((row) => row.type)).toEqual(['turn', 'message'])
  })

  it('leaves a call without a loaded result unpaired', () => {
    const rows = buildRows([message(0, 1, 'tool_call', { toolCallId: 'later', toolName: 'Read' })])
    const call = rows[1]
    expect(call?.type === 'message' && call.result).toBeNull()
  })
})

describe('messages the agent\'s file no longer holds', () => {
  const gone = (seq: number) => ({ sourceRef: { file: '/h/s.jsonl', offset: seq * 100, notInFile: true as const } })

  it('get one note before each run of them, after its turn header, and not before the others', () => {
    const rows = buildRows([
      message(0, 1, 'user', { sourceRef: { file: '/h/s.jsonl', offset: 0 } }),
      message(1, 1, 'assistant', gone(1)),
      message(2, 2, 'user', gone(2)),
      message(3, 2, 'assistant', gone(3)),
      message(4, 3, 'user'),
      message(5, 3, 'assistant', gone(5))
    ])
    expect(rows.map((row) => (row.type === 'message' ? row.message.seq : row.type === 'turn' ? `turn ${row.turn}` : row.type))).toEqual([
      'turn 1', 0, 'not-in-file', 1, 'turn 2', 2, 3, 'turn 3', 4, 'not-in-file', 5
    ])
    expect(rows.filter((row) => row.type === 'message' && row.notInFile).map((row) => row.type === 'message' && row.message.seq)).toEqual([1, 2, 3, 5])
    expect(rows.map(turnOfRow)).toEqual([1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3])
    expect(rowIndexOfSeq(rows, 5)).toBe(10)
  })

  it('begin a loaded page with a note when its first message is one', () => {
    expect(buildRows([message(7, 4, 'user', gone(7))]).map((row) => row.type)).toEqual(['turn', 'not-in-file', 'message'])
  })
})

describe('moving by turns', () => {
  it('finds a turn header and steps to the next turn or back to this one', () => {
    const rows = buildRows([message(0, 1, 'user'), message(1, 1, 'assistant'), message(2, 2, 'user'), message(3, 3, 'user')])
    expect(rowIndexOfTurn(rows, 2)).toBe(3)
    expect(rowIndexOfTurn(rows, 9)).toBe(-1)
    expect(rows.map(turnOfRow)).toEqual([1, 1, 1, 2, 2, 3, 3])
    const bounds = { first: 1, last: 3 }
    expect(turnStep({ turn: 1, headerAtTop: true }, 1, bounds)).toBe(2)
    expect(turnStep({ turn: 2, headerAtTop: false }, -1, bounds)).toBe(2)
    expect(turnStep({ turn: 2, headerAtTop: true }, -1, bounds)).toBe(1)
    expect(turnStep({ turn: 1, headerAtTop: true }, -1, bounds)).toBeNull()
    expect(turnStep({ turn: 3, headerAtTop: false }, 1, bounds)).toBeNull()
    expect(turnStep(null, 1, bounds)).toBe(1)
  })
})
