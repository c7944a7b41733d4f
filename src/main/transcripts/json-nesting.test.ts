import { describe, expect, it } from 'vitest'
import { jsonTextNestsDeeper, valueNestsDeeper } from './json-nesting'

describe('JSON nesting depth', () => {
  it('counts arrays and objects, not brackets inside strings (escaped quotes and backslashes included)', () => {
    expect(jsonTextNestsDeeper('{"a":[1,{"b":2}]}', 3)).toBe(false)
    expect(jsonTextNestsDeeper('{"a":[1,{"b":[2]}]}', 3)).toBe(true)
    expect(jsonTextNestsDeeper(JSON.stringify({ text: '[[[[{{{{ \\" [[[[ "' }), 1)).toBe(false)
    expect(jsonTextNestsDeeper(JSON.stringify({ text: 'ends in a backslash \\', next: [[1]] }), 2)).toBe(true)
    expect(jsonTextNestsDeeper(JSON.stringify({ text: 'ends in a backslash \\', next: [1] }), 2)).toBe(false)
    expect(jsonTextNestsDeeper('"never closed [[[[', 1)).toBe(false)
    expect(jsonTextNestsDeeper(`${'['.repeat(100_000)}`)).toBe(true)
  })

  it('measures values without recursion', () => {
    let deep: unknown = 'leaf'
    for (let level = 0; level < 100_000; level++) deep = [deep]
    expect(valueNestsDeeper(deep)).toBe(true)
    expect(valueNestsDeeper({ a: [1, { b: 2 }] }, 3)).toBe(false)
    expect(valueNestsDeeper({ a: [1, { b: [2] }] }, 3)).toBe(true)
    expect(valueNestsDeeper('text')).toBe(false)
  })
})
