import { describe, expect, it } from 'vitest'
import type { SearchHit } from '../../../../shared/contract'
import { uniqueHits } from './unique-hits'

const hit = (messageId: number): SearchHit => ({
  messageId,
  sessionId: 's',
  sessionTitle: 'A session',
  workspaceId: 1,
  workspaceName: 'w',
  seq: messageId,
  turn: 1,
  role: 'user',
  createdAt: 0,
  snippet: [{ text: 'x', match: true }]
})

describe('uniqueHits', () => {
  it('lists a hit that a later page repeats (new messages shifted the offsets) once, where it was first', () => {
    expect(uniqueHits([{ items: [hit(9), hit(8)] }, { items: [hit(8), hit(7)] }]).map((h) => h.messageId)).toEqual([9, 8, 7])
  })

  it('keeps every hit of pages that do not overlap, in order', () => {
    expect(uniqueHits([{ items: [hit(3)] }, { items: [hit(2), hit(1)] }]).map((h) => h.messageId)).toEqual([3, 2, 1])
  })
})
