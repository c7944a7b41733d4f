import { parsePatch, structuredPatch, type StructuredPatchHunk } from 'diff'
import { MAX_EDIT_LENGTH } from '../../../../shared/line-diff-limits'

/** Turns code into highlighted HTML (escaped by highlight.js), or null when it cannot. */
export type Highlighter = (code: string) => string | null

export type LineKind = 'context' | 'add' | 'del'

/**
 * A run of consecutive lines of one side of a diff (or of a file), highlighted together the
 * first time one of them is shown: highlighting stays proportional to what is on screen, and
 * a token spanning lines inside a run (a block comment) keeps its colour.
 */
export interface HighlightChunk {
  texts: string[]
  highlighter: Highlighter | null
  html?: (string | null)[]
}

/** Where a line's colours come from: its chunk and its index in it. */
export interface LineRef {
  chunk: HighlightChunk
  index: number
}

export interface DiffLine {
  kind: LineKind
  oldNo: number | null
  newNo: number | null
  text: string
  /** Colours: the new side's for context and added lines, the old side's for removed ones. */
  colour: LineRef | null
  /** The file ends here without a final newline. */
  noNewline: boolean
}

export interface DiffHunk {
  header: string
  lines: DiffLine[]
}

export type UnifiedRow = { type: 'hunk'; key: string; header: string } | { type: 'line'; key: string; line: DiffLine }

export interface SplitCell {
  no: number
  kind: LineKind
  text: string
  colour: LineRef | null
  noNewline: boolean
}

export type SplitRow =
  | { type: 'hunk'; key: string; header: string }
  | { type: 'pair'; key: string; left: SplitCell | null; right: SplitCell | null }

/** Lines per highlighted chunk. */
export const CHUNK_LINES = 120
/** A chunk longer than this (minified code, data) is shown without colours. */
export const CHUNK_CHARS_LIMIT = 200_000

/** The hunks of a unified patch (the server's has no file headers), parsed by jsdiff. */
export function hunksOfPatch(patch: string): StructuredPatchHunk[] {
  if (!patch.trim()) return []
  return parsePatch(patch).flatMap((file) => file.hunks)
}

/** Line counts of a set of hunks, as `git diff --numstat` would count them. */
export function countLines(hunks: readonly StructuredPatchHunk[]): { added: number; removed: number } {
  let added = 0
  let removed = 0
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added += 1
      else if (line.startsWith('-')) removed += 1
    }
  }
  return { added, removed }
}

/**
 * Diff two texts in the renderer (for versions the server did not diff, e.g. across a rename),
 * giving up past MAX_EDIT_LENGTH edits or after `timeoutMs` instead of freezing the window.
 */
export function diffTexts(oldText: string, newText: string, timeoutMs = 800): StructuredPatchHunk[] | null {
  const patch = structuredPatch('a', 'b', oldText, newText, '', '', { context: 3, timeout: timeoutMs, maxEditLength: MAX_EDIT_LENGTH })
  return patch ? patch.hunks : null
}

/** The two texts as one hunk, every old line removed and every new one added: a split view shows them side by side. */
export function sideBySideHunks(oldText: string, newText: string): StructuredPatchHunk[] {
  const lines = (text: string) => (text === '' ? [] : (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n'))
  const before = lines(oldText)
  const after = lines(newText)
  if (before.length === 0 && after.length === 0) return []
  return [{ oldStart: 1, oldLines: before.length, newStart: 1, newLines: after.length, lines: [...before.map((line) => `-${line}`), ...after.map((line) => `+${line}`)] }]
}

/**
 * Split highlight.js HTML into one string per source line. A token spanning lines (a block
 * comment, a template string) has its <span>s closed at each line end and reopened on the
 * next line, so every line is valid HTML on its own.
 */
export function splitHighlightedLines(html: string): string[] {
  const lines: string[] = []
  const open: string[] = []
  let line = ''
  for (const token of html.match(/<span[^>]*>|<\/span>|\n|[^<\n]+|</g) ?? []) {
    if (token === '\n') {
      lines.push(line + '</span>'.repeat(open.length))
      line = open.join('')
    } else if (token === '</span>') {
      open.pop()
      line += token
    } else if (token.startsWith('<span')) {
      open.push(token)
      line += token
    } else {
      line += token
    }
  }
  lines.push(line + '</span>'.repeat(open.length))
  return lines
}

/** Highlight `texts` as one block (so multi-line tokens keep their colour), one HTML string per line. */
export function highlightLines(texts: readonly string[], highlighter: Highlighter | null): (string | null)[] {
  if (!highlighter || texts.length === 0) return texts.map(() => null)
  const html = highlighter(texts.join('\n'))
  if (html === null) return texts.map(() => null)
  const lines = splitHighlightedLines(html)
  return lines.length === texts.length ? lines : texts.map(() => null)
}

/** Group lines into chunks highlighted on demand; one LineRef per line. */
export function chunkLines(texts: readonly string[], highlighter: Highlighter | null): LineRef[] {
  const refs: LineRef[] = []
  for (let start = 0; start < texts.length; start += CHUNK_LINES) {
    const chunk: HighlightChunk = { texts: texts.slice(start, start + CHUNK_LINES), highlighter }
    chunk.texts.forEach((_, index) => refs.push({ chunk, index }))
  }
  return refs
}

/** A line's highlighted HTML (computing its chunk's on first use), or null to show plain text. */
export function lineHtml(ref: LineRef | null): string | null {
  if (!ref) return null
  const { chunk } = ref
  if (!chunk.html) {
    const size = chunk.texts.reduce((sum, text) => sum + text.length + 1, 0)
    chunk.html = highlightLines(chunk.texts, size <= CHUNK_CHARS_LIMIT ? chunk.highlighter : null)
  }
  return chunk.html[ref.index] ?? null
}

/**
 * jsdiff hunks as numbered lines. Each hunk's old side (context + removed lines) and new side
 * (context + added lines) are highlighted in chunks, lazily; a "\ No newline at end of file"
 * marker is folded into the line it belongs to.
 */
export function buildDiffHunks(hunks: readonly StructuredPatchHunk[], highlighter: Highlighter | null): DiffHunk[] {
  return hunks.map((hunk) => {
    const lines: DiffLine[] = []
    let oldNo = hunk.oldStart
    let newNo = hunk.newStart
    for (const raw of hunk.lines) {
      const sign = raw[0]
      const text = raw.slice(1)
      if (sign === '\\') {
        const previous = lines.at(-1)
        if (previous) previous.noNewline = true
      } else if (sign === '+') {
        lines.push({ kind: 'add', oldNo: null, newNo: newNo++, text, colour: null, noNewline: false })
      } else if (sign === '-') {
        lines.push({ kind: 'del', oldNo: oldNo++, newNo: null, text, colour: null, noNewline: false })
      } else {
        lines.push({ kind: 'context', oldNo: oldNo++, newNo: newNo++, text, colour: null, noNewline: false })
      }
    }
    const oldSide = lines.filter((line) => line.kind === 'del' || line.kind === 'context')
    const newSide = lines.filter((line) => line.kind !== 'del')
    chunkLines(oldSide.map((line) => line.text), highlighter).forEach((ref, index) => {
      const line = oldSide[index]
      if (line?.kind === 'del') line.colour = ref
    })
    chunkLines(newSide.map((line) => line.text), highlighter).forEach((ref, index) => {
      const line = newSide[index]
      if (line) line.colour = ref
    })
    return { header: hunkHeader(hunk), lines }
  })
}

/**
 * `@@ -a,b +c,d @@` as diff and git write it: an empty side starts at 0 (a created file's hunk
 * is `-0,0`), though jsdiff numbers it from 1.
 */
export function hunkHeader(hunk: Pick<StructuredPatchHunk, 'oldStart' | 'oldLines' | 'newStart' | 'newLines'>): string {
  return `@@ -${hunk.oldLines === 0 ? 0 : hunk.oldStart},${hunk.oldLines} +${hunk.newLines === 0 ? 0 : hunk.newStart},${hunk.newLines} @@`
}

/** Rows of the unified view: a header per hunk, then its lines in order. */
export function unifiedRows(hunks: readonly DiffHunk[]): UnifiedRow[] {
  const rows: UnifiedRow[] = []
  hunks.forEach((hunk, h) => {
    rows.push({ type: 'hunk', key: `h${h}`, header: hunk.header })
    hunk.lines.forEach((line, l) => rows.push({ type: 'line', key: `h${h}l${l}`, line }))
  })
  return rows
}

const cell = (line: DiffLine, side: 'old' | 'new'): SplitCell => ({
  no: (side === 'old' ? line.oldNo : line.newNo) ?? 0,
  kind: line.kind,
  text: line.text,
  colour: line.colour,
  noNewline: line.noNewline
})

/**
 * Rows of the side-by-side view: context on both sides; each run of removed lines paired
 * with the run of added lines that follows it, line by line, the longer run's rest facing
 * blanks.
 */
export function splitRows(hunks: readonly DiffHunk[]): SplitRow[] {
  const rows: SplitRow[] = []
  hunks.forEach((hunk, h) => {
    rows.push({ type: 'hunk', key: `h${h}`, header: hunk.header })
    const { lines } = hunk
    let i = 0
    let r = 0
    while (i < lines.length) {
      const line = lines[i]
      if (!line) break
      if (line.kind === 'context') {
        rows.push({ type: 'pair', key: `h${h}r${r++}`, left: cell(line, 'old'), right: cell(line, 'new') })
        i += 1
        continue
      }
      const removed: DiffLine[] = []
      const added: DiffLine[] = []
      while (lines[i]?.kind === 'del') removed.push(lines[i++] as DiffLine)
      while (lines[i]?.kind === 'add') added.push(lines[i++] as DiffLine)
      for (let k = 0; k < Math.max(removed.length, added.length); k++) {
        const left = removed[k]
        const right = added[k]
        rows.push({ type: 'pair', key: `h${h}r${r++}`, left: left ? cell(left, 'old') : null, right: right ? cell(right, 'new') : null })
      }
    }
  })
  return rows
}
