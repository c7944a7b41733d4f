import { describe, expect, it } from 'vitest'
import { formatPlace, parsePlace } from './hash-route'

describe('hash routes', () => {
  it('round-trips a workspace and a session id with odd characters', () => {
    const place = { workspaceId: 7, sessionId: 'abc/def?x=1#y' }
    expect(parsePlace(formatPlace(place))).toEqual(place)
  })

  it('reads a workspace without a session', () => {
    expect(parsePlace('#/w/12')).toEqual({ workspaceId: 12, sessionId: null })
  })

  it('ignores anything else', () => {
    for (const hash of ['', '#', '#/w/0', '#/w/-1', '#/w/x', '#/x/1']) expect(parsePlace(hash)).toEqual({ workspaceId: null, sessionId: null })
  })

  it('drops a session id that is not valid percent-encoding', () => {
    expect(parsePlace('#/w/1/s/%E0%A4%A')).toEqual({ workspaceId: 1, sessionId: null })
  })
})
