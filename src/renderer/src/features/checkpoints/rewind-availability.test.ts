import { describe, expect, it } from 'vitest'
import { nothingToRewindReason } from './rewind-availability'

describe('nothingToRewindReason', () => {
  it('allows a rewind to before any turn up to the last one that changed a file', () => {
    expect(nothingToRewindReason(1, 3)).toBeNull()
    expect(nothingToRewindReason(3, 3)).toBeNull()
  })

  it('says why a turn after the last change has nothing to rewind', () => {
    expect(nothingToRewindReason(4, 3)).toBe('Nothing to rewind: no file change was journaled in turn 4 or after it (the last was in turn 3).')
  })

  it('says so for every turn of a session that changed no file', () => {
    expect(nothingToRewindReason(1, null)).toMatch(/^Nothing to rewind: no turn of this session changed a file/)
  })

  it('keeps the button enabled while the session detail is unknown', () => {
    expect(nothingToRewindReason(9, undefined)).toBeNull()
  })
})
