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

  it('refreshes the rewind history of the sessions a rewind names, and nothing of their transcripts', () => {
    const keys = keysToInvalidate({ entities: ['files', 'rewinds', 'checkpoints'], workspaceId: 1, sessionIds: ['a'] })
    expect(keys).toContainEqual(['rewinds', 'list', 'a'])
    expect(keys).not.toContainEqual(['rewinds', 'list'])
    expect(keys).toContainEqual(['sessions', 'detail', 'a'])
    expect(keys.some((key) => key[0] === 'transcript')).toBe(false)
  })

  it('refreshes every rewind history when the event names no session', () => {
    expect(keysToInvalidate({ entities: ['rewinds'] })).toContainEqual(['rewinds', 'list'])
  })

  it('leaves rewind histories alone when no rewind changed', () => {
    const keys = keysToInvalidate({ entities: ['messages', 'sessions'], workspaceId: 1, sessionIds: ['a'] })
    expect(keys.some((key) => key[0] === 'rewinds')).toBe(false)
  })

  it('refreshes the file lists and diffs of the sessions named, and the path histories of their workspace', () => {
    const keys = keysToInvalidate({ entities: ['files'], workspaceId: 4, sessionIds: ['a'] })
    expect(keys).toContainEqual(['files', 'session', 'a'])
    expect(keys).not.toContainEqual(['files', 'session'])
    expect(keys).toContainEqual(['files', 'history', 4])
    // A branch compared with its parent reads both sessions: every such comparison refreshes.
    expect(keys).toContainEqual(['files', 'pair'])
    expect(keys.some((key) => key[0] === 'files' && key[1] === 'version')).toBe(false)
    expect(keys.some((key) => key[0] === 'transcript')).toBe(false)
    expect(keysToInvalidate({ entities: ['messages'], workspaceId: 4, sessionIds: ['a'] })).not.toContainEqual(['files', 'pair'])
  })

  it('refreshes the detail of a session whose files changed: it says which turns have something to rewind', () => {
    const keys = keysToInvalidate({ entities: ['files'], workspaceId: 4, sessionIds: ['a'] })
    expect(keys).toContainEqual(['sessions', 'detail', 'a'])
  })

  it('refreshes every file list and history when a files or checkpoints event names no session or workspace', () => {
    const keys = keysToInvalidate({ entities: ['checkpoints'] })
    expect(keys).toContainEqual(['files', 'session'])
    expect(keys).toContainEqual(['files', 'history'])
  })

  it('leaves file queries alone when only messages changed', () => {
    const keys = keysToInvalidate({ entities: ['messages'], workspaceId: 1, sessionIds: ['a'] })
    expect(keys.some((key) => key[0] === 'files')).toBe(false)
  })

  it('refreshes the session tree of the workspace when sessions, messages, checkpoints or files change', () => {
    for (const entity of ['sessions', 'messages', 'checkpoints', 'files'] as const) {
      expect(keysToInvalidate({ entities: [entity], workspaceId: 4, sessionIds: ['a'] })).toContainEqual(['tree', 4])
      expect(keysToInvalidate({ entities: [entity] })).toContainEqual(['tree'])
    }
    expect(keysToInvalidate({ entities: ['rewinds'], workspaceId: 4 }).some((key) => key[0] === 'tree')).toBe(false)
  })

  it('lists each key once', () => {
    const keys = keysToInvalidate({ entities: ['sessions', 'messages', 'checkpoints', 'workspaces', 'rewinds', 'files'], workspaceId: 1, sessionIds: ['a'] })
    expect(new Set(keys.map((key) => JSON.stringify(key))).size).toBe(keys.length)
  })
})
