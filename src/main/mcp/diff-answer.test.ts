import { applyPatch } from 'diff'
import { describe, expect, it } from 'vitest'
import { lineDiff } from '../journal/line-diff/line-diff.mts'
import { capPatchLines, diffAnswer, MAX_MCP_PATCH_CHARS } from './diff-answer'

const lines = (word: string, count: number) => Array.from({ length: count }, (_, i) => `${word} line ${i}`).join('\n') + '\n'
const side = (text: string) => ({ hash: 'a'.repeat(64), size: text.length })

describe("the MCP diff tool's answer", () => {
  it('caps the structured patch as the text, with a "truncated, N more lines" note (it was 3.8 MB uncapped)', () => {
    const [before, after] = [lines('old', 38_000), lines('new', 38_000)]
    const diff = lineDiff(before, after)
    const { text, data } = diffAnswer({ binary: false, tooLarge: false, before: side(before), after: side(after), ...diff }, 'big.txt', 2)
    expect(diff.patch.length).toBeGreaterThan(900_000)
    expect(data.patch.length).toBeLessThanOrEqual(MAX_MCP_PATCH_CHARS)
    expect(JSON.stringify(data).length).toBeLessThan(2 * MAX_MCP_PATCH_CHARS)
    const shown = data.patch.split('\n').length
    expect(data.omittedLines).toBe(diff.patch.split('\n').length - shown)
    expect(data.note).toContain(`Truncated: ${data.omittedLines} more lines of the patch not shown`)
    expect(data.note).toContain('Too many changes to diff by line')
    expect(text).toContain('Too many changes to diff by line')
    expect(text).toContain(`Truncated: ${data.omittedLines} more lines`)
  }, 30_000)

  it('keeps a patch under the cap whole, with no note', () => {
    const diff = lineDiff('a\n', 'b\n')
    const { text, data } = diffAnswer({ binary: false, tooLarge: false, before: side('a\n'), after: side('b\n'), ...diff }, 'a.txt', 1)
    expect(data).toMatchObject({ patch: '@@ -1,1 +1,1 @@\n-a\n+b', omittedLines: 0, note: null })
    expect(applyPatch('a\n', data.patch)).toBe('b\n')
    expect(text).toBe('--- a.txt (before turn 1)\n+++ a.txt (after turn 1)\n@@ -1,1 +1,1 @@\n-a\n+b')
  })

  it('cuts at a whole line', () => {
    expect(capPatchLines('12345\n12345\n12345', 8)).toEqual({ patch: '12345', omittedLines: 2 })
  })
})
