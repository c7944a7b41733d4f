import { describe, expect, it } from 'vitest'
import type { Message } from '../../../../shared/contract'
import { currentTurn, delayAfter, revealForScrub, revealThroughTurn, scrubLabel, turnEnds } from './replay-timing'

let seq = 0
function message(turn: number, role: Message['role'] = 'assistant'): Message {
  seq += 1
  return { id: seq, sessionId: 's', seq, turn, role, content: '', toolName: null, toolCallId: null, toolInput: null, isError: false, model: null, usage: null, createdAt: null, inContext: true, sourceRef: null }
}

describe('replay timing', () => {
  const messages = [message(0, 'system'), message(1, 'user'), message(1), message(2, 'user'), message(2, 'tool_call'), message(3, 'user')]

  it('reveals a turn through its last message', () => {
    expect(revealThroughTurn(messages, 1, true)).toBe(3)
    expect(revealThroughTurn(messages, 2, true)).toBe(5)
    // The last loaded turn may go on in the next page: wait for it, unless there is none.
    expect(revealThroughTurn(messages, 3, true)).toBeNull()
    expect(revealThroughTurn(messages, 3, false)).toBe(6)
  })

  it('knows the turn being played', () => {
    expect(currentTurn(messages, 0)).toBe(0)
    expect(currentTurn(messages, 2)).toBe(1)
    expect(currentTurn(messages, 5)).toBe(2)
    expect(currentTurn(messages, 99)).toBe(3)
  })

  it('paces by what was just shown, faster at higher speeds', () => {
    expect(delayAfter(null, 1)).toBe(0)
    const prompt = delayAfter(messages[1] ?? null, 1)
    expect(prompt).toBeGreaterThan(delayAfter(messages[4] ?? null, 1))
    expect(delayAfter(messages[1] ?? null, 4)).toBe(prompt / 4)
  })

  it('moves the scrubber to a loaded position at once, waits for a page beyond, and stops at the last message', () => {
    expect(revealForScrub(6, 4, true)).toBe(4)
    expect(revealForScrub(6, 6, true)).toBe(6)
    expect(revealForScrub(6, 9, true)).toBeNull()
    expect(revealForScrub(6, 9, false)).toBe(6)
    expect(revealForScrub(6, -1, false)).toBe(0)
  })

  it('says where the scrubber is: the message, of how many, and its turn', () => {
    expect(scrubLabel(messages, 0, 6)).toBe('Not started, 6 messages')
    expect(scrubLabel(messages, 1, 6)).toBe('Message 1 of 6')
    expect(scrubLabel(messages, 5, 6)).toBe('Message 5 of 6, turn 2')
  })

  it('marks where each loaded turn ends on the scrubber', () => {
    expect(turnEnds(messages)).toEqual([1, 3, 5])
    expect(turnEnds([])).toEqual([])
  })
})
