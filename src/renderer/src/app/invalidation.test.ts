import { describe, expect, it } from 'vitest'
import { keysToInvalidate } from './invalidation'

describe('keysToInvalidate', () => {
  it('refreshes only the transcripts of the sessions that got messages', () => {
    const keys = keysToInvalidate({ entities: ['messages'], workspaceId: 3, sessionIds: ['a'] })
    expect(keys).toContainEqual(['transcript', 'a'])
    expect(keys).not.toContainEqual(['transcript'])
    expect(keys).toContainEqual(['sessions', 'list', 3])
    expect(keys).toContainEqual(['sessions', 'detail', 'a'])
    expect(keys).toContainEqual(['search'])
  })

  it('falls back to every transcript when the event names no session', () => {
    expect(keysToInvalidate({ entities: ['messages'] })).toContainEqual(['transcript'])
  })

  it('leaves transcripts alone when only workspaces changed', () => {
    const keys = keysToInvalidate({ entities: ['workspaces'], workspaceId: 1 })
    expect(keys).toEqual([['workspaces'], ['search']])
  })

  it('refreshes session lists of one workspace and every detail when sessions change', () => {
    const keys = keysToInvalidate({ entities: ['sessions'], workspaceId: 2, sessionIds: ['b'] })
    expect(keys).toContainEqual(['sessions', 'list', 2])
    expect(keys).toContainEqual(['sessions', 'detail'])
    expect(keys.some((key) => key[0] === 'transcript')).toBe(false)
  })

  it('lists each key once', () => {
    const keys = keysToInvalidate({ entities: ['sessions', 'messages', 'checkpoints', 'workspaces'], workspaceId: 1, sessionIds: ['a'] })
    expect(new Set(keys.map((key) => JSON.stringify(key))).size).toBe(keys.length)
  })
})
