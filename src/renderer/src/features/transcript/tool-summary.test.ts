import { describe, expect, it } from 'vitest'
import { formatToolInput, summarizeToolInput } from './tool-summary'

describe('summarizeToolInput', () => {
  it('prefers the field that says what the call did', () => {
    expect(summarizeToolInput({ description: 'Run tests', command: 'npm   test\n--silent' })).toBe('npm test --silent')
    expect(summarizeToolInput({ file_path: 'src/a.ts', content: 'x' })).toBe('src/a.ts')
  })

  it('falls back to compact JSON, clipped', () => {
    expect(summarizeToolInput({ n: 1 })).toBe('{"n":1}')
    expect(summarizeToolInput({ text: 'x'.repeat(500) }).length).toBeLessThanOrEqual(140)
    expect(summarizeToolInput(null)).toBe('')
  })

  it('pretty-prints input for the expanded view', () => {
    expect(formatToolInput({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}')
  })
})
