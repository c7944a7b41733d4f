import { describe, expect, it } from 'vitest'
import { firstMatchFrom, matchLabel, stepMatch, textMatches } from './find-model'

const matches = [{ seq: 3, turn: 1 }, { seq: 10, turn: 2 }, { seq: 40, turn: 5 }]

describe('find in a session', () => {
  it('starts at the first match at or below the reader, else the first', () => {
    expect(firstMatchFrom(matches, null)).toBe(0)
    expect(firstMatchFrom(matches, 4)).toBe(1)
    expect(firstMatchFrom(matches, 10)).toBe(1)
    expect(firstMatchFrom(matches, 41)).toBe(0)
    expect(firstMatchFrom([], 4)).toBe(-1)
  })

  it('walks matches both ways, wrapping round', () => {
    expect(stepMatch(0, 3, 1)).toBe(1)
    expect(stepMatch(2, 3, 1)).toBe(0)
    expect(stepMatch(0, 3, -1)).toBe(2)
    expect(stepMatch(-1, 3, -1)).toBe(2)
    expect(stepMatch(-1, 3, 1)).toBe(0)
    expect(stepMatch(0, 0, 1)).toBe(-1)
  })

  it('finds every occurrence case-insensitively, without overlaps', () => {
    expect(textMatches('Foo foo FOO', 'foo')).toEqual([[0, 3], [4, 7], [8, 11]])
    expect(textMatches('aaaa', 'aa')).toEqual([[0, 2], [2, 4]])
    expect(textMatches('nothing here', 'x')).toEqual([])
    expect(textMatches('abc', '')).toEqual([])
    // A letter whose lower case is longer falls back to exact case, so offsets stay right.
    const text = 'İstanbul and istanbul'
    for (const [start, end] of textMatches(text, 'stanbul')) expect(text.slice(start, end)).toBe('stanbul')
  })

  it('says where the reader is among the matches', () => {
    expect(matchLabel(0, 17, false)).toBe('1 of 17')
    expect(matchLabel(-1, 1, false)).toBe('1 match')
    expect(matchLabel(2, 1000, true)).toBe(`3 of ${(1000).toLocaleString()}+`)
    expect(matchLabel(-1, 0, false)).toBe('No matches')
  })
})
