import { describe, expect, it } from 'vitest'
import { setTopLevelKey } from './json-text-edit'

describe('setting one top-level key of JSON text', () => {
  it('replaces a value where it stands, leaving every other byte', () => {
    const text = '{\n  "model": "opus",\n  "cleanupPeriodDays": 30,\n  "hooks": { "Stop": [{ "matcher": "}", "hooks": [] }] }\n}\n'
    expect(setTopLevelKey(text, 'cleanupPeriodDays', 365)).toBe(text.replace('"cleanupPeriodDays": 30', '"cleanupPeriodDays": 365'))
  })

  it('adds a new key after the last, indented like the first (spaces or tabs)', () => {
    expect(setTopLevelKey('{\n  "a": 1,\n  "b": {"c": "x\\"}"}\n}\n', 'cleanupPeriodDays', 90)).toBe('{\n  "a": 1,\n  "b": {"c": "x\\"}"},\n  "cleanupPeriodDays": 90\n}\n')
    expect(setTopLevelKey('{\n\t"a": [1, 2]\n}', 'k', 1)).toBe('{\n\t"a": [1, 2],\n\t"k": 1\n}')
    expect(setTopLevelKey('{"a":true}', 'k', 1)).toBe('{"a":true, "k": 1}')
  })

  it('fills an empty object', () => {
    expect(setTopLevelKey('{}\n', 'k', 7)).toBe('{\n  "k": 7\n}\n')
    expect(JSON.parse(setTopLevelKey('{ }', 'k', 7))).toEqual({ k: 7 })
  })

  it('changes the value JSON reads when a key is there twice (the last)', () => {
    const edited = setTopLevelKey('{"k": 1, "k": 2}', 'k', 3)
    expect(edited).toBe('{"k": 1, "k": 3}')
    expect(JSON.parse(edited)).toEqual({ k: 3 })
  })

  it('refuses what is not a plain JSON object', () => {
    expect(() => setTopLevelKey('{ // comment\n"a": 1 }', 'k', 1)).toThrow(/not plain JSON/)
    expect(() => setTopLevelKey('[1]', 'k', 1)).toThrow(/JSON object/)
  })
})
