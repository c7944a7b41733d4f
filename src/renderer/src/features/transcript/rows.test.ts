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
