import { structuredPatch } from 'diff'
import { describe, expect, it } from 'vitest'
import { highlight } from '../../ui/highlighter'
import { buildDiffHunks, chunkLines, CHUNK_LINES, countLines, diffTexts, highlightLines, hunkHeader, hunksOfPatch, lineHtml, splitHighlightedLines, splitRows, unifiedRows } from './diff-rows'

/** A patch as the server sends it: hunks only, no file headers (src/main/journal/file-diff.ts). */
function serverPatch(oldText: string, newText: string): string {
  return structuredPatch('f', 'f', oldText, newText, '', '', { context: 3 })
    .hunks.map((hunk) => [`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...hunk.lines].join('\n'))
    .join('\n')
}

const before = 'one\ntwo\nthree\nfour\nfive\n'
const after = 'one\nTWO\nthree\nfour\nfive\nsix\n'

describe('hunksOfPatch', () => {
  it('parses the server’s header-less patch with jsdiff', () => {
    const hunks = hunksOfPatch(serverPatch(before, after))
    expect(hunks).toHaveLength(1)
    expect(hunks[0]?.oldStart).toBe(1)
    expect(countLines(hunks)).toEqual({ added: 2, removed: 1 })
  })

  it('gives no hunks for an empty patch', () => {
    expect(hunksOfPatch('')).toEqual([])
  })
})

describe('buildDiffHunks and the two layouts', () => {
  const hunks = buildDiffHunks(hunksOfPatch(serverPatch(before, after)), null)

  it('numbers old and new lines', () => {
    const lines = hunks[0]?.lines ?? []
    expect(lines.map((line) => [line.kind, line.oldNo, line.newNo, line.text])).toEqual([
      ['context', 1, 1, 'one'],
      ['del', 2, null, 'two'],
      ['add', null, 2, 'TWO'],
      ['context', 3, 3, 'three'],
      ['context', 4, 4, 'four'],
      ['context', 5, 5, 'five'],
      ['add', null, 6, 'six']
    ])
  })

  it('unified: a header row, then every line in order', () => {
    const rows = unifiedRows(hunks)
    expect(rows[0]).toEqual({ type: 'hunk', key: 'h0', header: '@@ -1,5 +1,6 @@' })
    expect(rows).toHaveLength(8)
    expect(new Set(rows.map((row) => row.key)).size).toBe(rows.length)
  })

  it('side by side: a removed line faces the line that replaced it; an added line faces a blank', () => {
    const rows = splitRows(hunks).filter((row) => row.type === 'pair')
    const view = rows.map((row) => [row.left ? `${row.left.no}${row.left.kind === 'del' ? '-' : ' '}${row.left.text}` : null, row.right ? `${row.right.no}${row.right.kind === 'add' ? '+' : ' '}${row.right.text}` : null])
    expect(view).toEqual([
      ['1 one', '1 one'],
      ['2-two', '2+TWO'],
      ['3 three', '3 three'],
      ['4 four', '4 four'],
      ['5 five', '5 five'],
      [null, '6+six']
    ])
  })

  it('side by side: unequal runs pair line by line, the rest facing blanks', () => {
    const rows = splitRows(buildDiffHunks(hunksOfPatch(serverPatch('a\nb\nc\nz\n', 'X\nz\n')), null)).filter((row) => row.type === 'pair')
    expect(rows.map((row) => [row.left?.text ?? null, row.right?.text ?? null])).toEqual([
      ['a', 'X'],
      ['b', null],
      ['c', null],
      ['z', 'z']
    ])
  })

  it('folds "\\ No newline at end of file" into the line it describes', () => {
    const lines = buildDiffHunks(hunksOfPatch(serverPatch('a\nb', 'a\nc')), null)[0]?.lines ?? []
    expect(lines.map((line) => [line.kind, line.text, line.noNewline])).toEqual([
      ['context', 'a', false],
      ['del', 'b', true],
      ['add', 'c', true]
    ])
  })

  it('a created file is all added lines, numbered from 1', () => {
    const lines = buildDiffHunks(hunksOfPatch(serverPatch('', 'x\ny\n')), null)[0]?.lines ?? []
    expect(lines.map((line) => [line.kind, line.oldNo, line.newNo])).toEqual([
      ['add', null, 1],
      ['add', null, 2]
    ])
  })
})

describe('highlighting', () => {
  it('splits highlighted HTML into lines, closing and reopening spans that cross a newline', () => {
    const html = '<span class="a">x</span> <span class="c">/* one\ntwo */</span>\ny'
    expect(splitHighlightedLines(html)).toEqual(['<span class="a">x</span> <span class="c">/* one</span>', '<span class="c">two */</span>', 'y'])
  })

  it('highlights a block comment across lines with highlight.js, one line at a time', () => {
    const texts = ['const a = 1 /* start', 'still comment */', 'let b = "<b>"']
    const lines = highlightLines(texts, (code) => highlight(code, 'typescript'))
    expect(lines).toHaveLength(3)
    expect(lines[1]).toContain('hljs-comment')
    // The source's markup is escaped by highlight.js, never passed through.
    expect(lines[2]).toContain('&lt;b&gt;')
    expect(lines[2]).not.toContain('<b>')
  })

  it('gives both sides of a hunk their own colours, and leaves unknown languages plain', () => {
    const patch = hunksOfPatch(serverPatch('const a = 1 /* old\nstill old */\n', 'const a = 2\n'))
    const lines = buildDiffHunks(patch, (code) => highlight(code, 'typescript'))[0]?.lines ?? []
    expect(lines.map((line) => line.kind)).toEqual(['del', 'del', 'add'])
    expect(lineHtml(lines[0]?.colour ?? null)).toContain('hljs-keyword')
    // The removed lines are highlighted together: the comment's second line is still a comment.
    expect(lineHtml(lines[1]?.colour ?? null)).toContain('hljs-comment')
    expect(lineHtml(lines[2]?.colour ?? null)).toContain('hljs-keyword')
    expect(buildDiffHunks(patch, () => null)[0]?.lines.every((line) => lineHtml(line.colour) === null)).toBe(true)
  })

  it('highlights only the chunks whose lines are asked for', () => {
    let calls = 0
    const refs = chunkLines(
      Array.from({ length: CHUNK_LINES * 3 }, (_, index) => `line ${index}`),
      (code) => {
        calls += 1
        return code
      }
    )
    expect(calls).toBe(0)
    expect(lineHtml(refs[CHUNK_LINES + 5] ?? null)).toBe(`line ${CHUNK_LINES + 5}`)
    expect(lineHtml(refs[CHUNK_LINES + 6] ?? null)).toBe(`line ${CHUNK_LINES + 6}`)
    expect(calls).toBe(1)
  })
})

describe('diffTexts', () => {
  it('diffs two versions in the renderer, with the same counts as the server', () => {
    const hunks = diffTexts(before, after)
    expect(hunks).not.toBeNull()
    expect(countLines(hunks ?? [])).toEqual({ added: 2, removed: 1 })
  })
})

describe('hunkHeader', () => {
  it('numbers an empty side from 0, as diff and git write it, whether the hunks came from jsdiff or the server', () => {
    const created = diffTexts('', 'a\nb\n') ?? []
    expect(created.map(hunkHeader)).toEqual(['@@ -0,0 +1,2 @@'])
    expect(buildDiffHunks(hunksOfPatch('@@ -0,0 +1,2 @@\n+a\n+b'), null).map((hunk) => hunk.header)).toEqual(['@@ -0,0 +1,2 @@'])
    expect(hunkHeader({ oldStart: 1, oldLines: 1, newStart: 1, newLines: 0 })).toBe('@@ -1,1 +0,0 @@')
    expect(hunkHeader({ oldStart: 3, oldLines: 2, newStart: 3, newLines: 4 })).toBe('@@ -3,2 +3,4 @@')
  })
})
