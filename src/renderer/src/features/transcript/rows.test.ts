import { describe, expect, it } from 'vitest'
import type { Message } from '../../../../shared/contract'
import { buildRows, rowIndexOfSeq } from './rows'

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
    expect(rows.map((row) => (row.type === 'turn' ? `turn ${row.turn}` : row.message.role))).toEqual(['turn 1', 'user', 'tool_call', 'turn 2', 'user'])
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
