import { applyPatch } from 'diff'
import { afterAll, describe, expect, it } from 'vitest'
import { DiffThreads } from './diff-thread'
import { lineDiff, sideBySidePatch } from './line-diff.mts'
import { MAX_EDIT_LENGTH, TOO_MANY_CHANGES } from './bounds.mts'
import * as windowLimits from '../../../shared/line-diff-limits'

/** `count` lines, each naming its side: every line differs between 'old' and 'new'. */
const numbered = (count: number, side: string) => Array.from({ length: count }, (_, i) => `${side} ${i}`).join('\n') + '\n'

describe('the bounded line diff (R27)', () => {
  it('stops past its edit bound: 38,000 lines all changed are too many changes, the patch the two versions side by side', () => {
    const [before, after] = [numbered(38_000, 'old'), numbered(38_000, 'new')]
    const diff = lineDiff(before, after)
    expect(diff).toMatchObject({ tooManyChanges: true, stoppedBy: 'edits', added: 0, removed: 0 })
    expect(applyPatch(before, diff.patch)).toBe(after)
    expect(lineDiff(before, after, { countsOnly: true }).patch).toBe('')
  }, 30_000)

  it('stops a 2,100-line rewrite, and diffs a few hundred scattered edits of 5,000 lines by line', () => {
    expect(lineDiff(numbered(2_100, 'old'), numbered(2_100, 'new'))).toMatchObject({ tooManyChanges: true })
    const base = numbered(5_000, 'line').split('\n')
    const edited = base.map((line, i) => (i % 20 === 0 && line ? `${line} edited` : line))
    expect(lineDiff(base.join('\n'), edited.join('\n'))).toMatchObject({ tooManyChanges: false, added: 250, removed: 250 })
  }, 30_000)

  it('diffs a 38,000-line file created, deleted or grown by a block: only adding or only removing is cheap', () => {
    const big = numbered(38_000, 'new')
    expect(lineDiff('', big)).toMatchObject({ tooManyChanges: false, added: 38_000, removed: 0 })
    expect(lineDiff(big, '')).toMatchObject({ tooManyChanges: false, added: 0, removed: 38_000 })
    const grown = lineDiff('head\ntail\n', `head\n${big}tail\n`)
    expect(grown).toMatchObject({ tooManyChanges: false, added: 38_000, removed: 0 })
    expect(grown.patch.startsWith('@@ -1,2 +1,38002 @@\n head\n+new 0\n')).toBe(true)
  }, 30_000)

  it('says when the clock stopped it rather than the edits (a count then is not kept)', () => {
    const diff = lineDiff(numbered(3_000, 'old'), numbered(3_000, 'new'), { bounds: { maxEditLength: 1_000_000, timeoutMs: 1 } })
    expect(diff).toMatchObject({ tooManyChanges: true, stoppedBy: 'time' })
  })

  it("has the window's copy of its bound and words", () => {
    expect({ ...windowLimits }).toEqual({ MAX_EDIT_LENGTH, TOO_MANY_CHANGES })
  })

  it('writes a side-by-side patch that applies, with or without final newlines', () => {
    for (const [before, after] of [['a\nb', 'c\n'], ['', 'x\ny'], ['x\n', ''], ['one\n', 'two']] as const) {
      expect(applyPatch(before, sideBySidePatch(before, after))).toBe(after)
    }
  })
})

describe('the diff threads', () => {
  const threads = new DiffThreads(undefined, 1, 60_000)
  afterAll(() => threads.close())

  it('diff on a worker thread, in the order asked', async () => {
    const answers = await Promise.all([threads.diff('a\n', 'b\n'), threads.diff('x\n', 'x\ny\n', { countsOnly: true })])
    expect(answers).toEqual([
      { tooManyChanges: false, added: 1, removed: 1, patch: '@@ -1,1 +1,1 @@\n-a\n+b', stoppedBy: null },
      { tooManyChanges: false, added: 1, removed: 0, patch: '', stoppedBy: null }
    ])
  })

  it('end a thread that misses its deadline and answer "too many changes" with both versions', async () => {
    const impatient = new DiffThreads(undefined, 1, 1)
    try {
      const [before, after] = [numbered(38_000, 'old'), numbered(38_000, 'new')]
      const diff = await impatient.diff(before, after, { bounds: { maxEditLength: 1_000_000, timeoutMs: 600_000 } })
      expect(diff).toMatchObject({ tooManyChanges: true, stoppedBy: 'time' })
      expect(applyPatch(before, diff.patch)).toBe(after)
    } finally {
      await impatient.close()
    }
  }, 30_000)
})
