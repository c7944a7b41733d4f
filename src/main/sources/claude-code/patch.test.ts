import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { structuredPatch } from 'diff'
import { describe, expect, it } from 'vitest'
import { applyStringEdit, applyStructuredPatch, formatHunks, type PatchHunk } from './patch'

const FIXTURES = join(__dirname, '../../../../fixtures/claude-code')

function hunksOf(before: string, after: string): PatchHunk[] {
  return structuredPatch('a', 'b', before, after).hunks
}

describe('applyStructuredPatch', () => {
  it('replaces, inserts and removes lines at the positions the hunks name', () => {
    const before = 'one\ntwo\nthree\nfour\n'
    const hunks: PatchHunk[] = [{ oldStart: 2, oldLines: 2, newStart: 2, newLines: 3, lines: [' two', '-three', '+THREE', '+three and a half'] }]
    expect(applyStructuredPatch(before, hunks)).toBe('one\ntwo\nTHREE\nthree and a half\nfour\n')
  })

  it('creates content in an empty file (oldLines 0 starts at oldStart - 1, like jsdiff)', () => {
    expect(applyStructuredPatch('', [{ oldStart: 1, oldLines: 0, newStart: 1, newLines: 2, lines: ['+a', '+b'] }])).toBe('a\nb\n')
  })

  it('honours "\\ No newline at end of file" on either side', () => {
    expect(applyStructuredPatch('a\nb', hunksOf('a\nb', 'a\nb\n'))).toBe('a\nb\n')
    expect(applyStructuredPatch('a\nb\n', hunksOf('a\nb\n', 'a\nc'))).toBe('a\nc')
    expect(applyStructuredPatch('a\nb', hunksOf('a\nb', 'x\na\nb'))).toBe('x\na\nb')
    expect(hunksOf('a\nb', 'a\nb\n')[0]?.lines).toContain('\\ No newline at end of file')
  })

  it('refuses hunks whose context does not match the file', () => {
    const hunks = hunksOf('one\ntwo\nthree\n', 'one\n2\nthree\n')
    expect(applyStructuredPatch('one\nTWO\nthree\n', hunks)).toBeNull()
    expect(applyStructuredPatch('one\n', hunks)).toBeNull()
  })

  it('rebuilds the new text of every jsdiff patch over a set of generated edits', () => {
    // A deterministic pseudo-random walk: files of 0-40 short lines, edited in 1-4 places, with
    // and without a final newline. jsdiff (the library Claude Code computes structuredPatch
    // with) produces the hunks; applying them to the old text must give the new text exactly.
    let seed = 7
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    }
    const words = ['alpha', 'beta', 'gamma', '', '  indented', 'delta', 'x', 'end']
    let checked = 0
    for (let round = 0; round < 300; round++) {
      const lines = Array.from({ length: random(40) }, () => words[random(words.length)] ?? '')
      const edited = [...lines]
      for (let edits = 1 + random(4); edits > 0; edits--) {
        const at = random(edited.length + 1)
        const op = random(3)
        if (op === 0) edited.splice(at, 0, `new ${round}`)
        else if (op === 1) edited.splice(at, 1)
        else edited.splice(at, 1, `changed ${round}`)
      }
      const before = lines.join('\n') + (lines.length && random(4) ? '\n' : '')
      const after = edited.join('\n') + (edited.length && random(4) ? '\n' : '')
      expect(applyStructuredPatch(before, hunksOf(before, after)), `round ${round}`).toBe(after)
      checked++
    }
    expect(checked).toBe(300)
  })
})

describe('applyStringEdit', () => {
  it('replaces the first occurrence, or all of them with replaceAll', () => {
    expect(applyStringEdit('a-b-a', 'a', 'c', false)).toBe('c-b-a')
    expect(applyStringEdit('a-b-a', 'a', 'c', true)).toBe('c-b-c')
  })

  it('takes the new string literally ($& and $1 are not replacement patterns)', () => {
    expect(applyStringEdit('price', 'price', '$& $1 $$', false)).toBe('$& $1 $$')
  })

  it('gives null when the old string is not in the file, and creates a file from an empty old string', () => {
    expect(applyStringEdit('abc', 'x', 'y', false)).toBeNull()
    expect(applyStringEdit('', '', 'new file\n', false)).toBe('new file\n')
    expect(applyStringEdit('not empty', '', 'y', false)).toBeNull()
  })
})

describe('formatHunks', () => {
  it('writes unified-diff hunk headers', () => {
    expect(formatHunks([{ oldStart: 3, oldLines: 2, newStart: 3, newLines: 1, lines: [' a', '-b'] }])).toBe('@@ -3,2 +3,1 @@\n a\n-b')
    expect(formatHunks([{ oldStart: 1, oldLines: 0, newStart: 1, newLines: 1, lines: ['+a'] }])).toBe('@@ -0,0 +1,1 @@\n+a')
  })
})

describe('real Edit results', () => {
  // Every Edit toolUseResult with an originalFile in the fixtures: 65 in the spotter
  // projects-dir session and 1 in the codemie session (jq:
  // select(.toolUseResult.oldString != null and .toolUseResult.originalFile != null)).
  // Applying structuredPatch and repeating the string replacement must agree on all of them.
  const files = [
    'spotter/projects-dir/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl',
    'codemie/-tmp-private/4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl'
  ]
  it('rebuild the same after-content from structuredPatch as from oldString/newString', () => {
    let compared = 0
    for (const file of files) {
      for (const line of readFileSync(join(FIXTURES, file), 'utf8').split('\n')) {
        if (!line.includes('"oldString"')) continue
        const result = (JSON.parse(line) as { toolUseResult?: unknown }).toolUseResult as
          | { originalFile?: string; oldString?: string; newString: string; replaceAll?: boolean; structuredPatch: PatchHunk[] }
          | undefined
        if (typeof result?.originalFile !== 'string' || typeof result.oldString !== 'string') continue
        const patched = applyStructuredPatch(result.originalFile, result.structuredPatch)
        expect(patched).not.toBeNull()
        expect(patched).toBe(applyStringEdit(result.originalFile, result.oldString, result.newString, result.replaceAll === true))
        compared++
      }
    }
    expect(compared).toBe(66)
  })
})
