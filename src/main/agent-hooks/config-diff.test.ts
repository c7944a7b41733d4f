import { describe, expect, it } from 'vitest'
import { configDiff } from './config-files'

describe('configDiff (the --dry-run patch of an agent settings file)', () => {
  it('gives a unified diff of a small change', () => {
    const patch = configDiff('/h/.claude/settings.json', '{\n  "a": 1\n}\n', '{\n  "a": 2\n}\n')
    expect(patch).toContain('-  "a": 1')
    expect(patch).toContain('+  "a": 2')
  })

  it('says "too many changes" for a settings file rewritten line by line, instead of diffing for minutes', () => {
    const lines = (tag: string) => Array.from({ length: 20_000 }, (_, i) => `"${tag}${i}": ${i},`).join('\n')
    const patch = configDiff('/h/.gemini/settings.json', lines('old'), lines('new'))
    expect(patch).toContain('too many changes to diff by line')
    expect(patch.length).toBeLessThan(1_000)
  })
})
