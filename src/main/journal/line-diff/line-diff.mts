/**
 * A bounded line diff of two texts (pure; runs in the diff thread, see diff-worker.mts). Within
 * the bounds: jsdiff's unified hunks (3 lines of context, no file headers) and the counts of
 * added and removed lines. Past them: `tooManyChanges`, and a patch that replaces the whole old
 * text by the whole new one, i.e. the two versions side by side, which is what can be shown.
 */
import { structuredPatch } from 'diff'
import { DIFF_TIMEOUT_MS, MAX_EDIT_LENGTH } from './bounds.mts'

export interface LineDiff {
  tooManyChanges: boolean
  /** Lines added and removed; 0 and 0 when `tooManyChanges` (not known). */
  added: number
  removed: number
  /** Unified diff without file headers; with `countsOnly`, empty. */
  patch: string
  /**
   * Which bound stopped it: `edits` is a property of the two texts (kept with their counts),
   * `time` of a busy machine too (not kept: another try may succeed). Null within the bounds.
   */
  stoppedBy: 'edits' | 'time' | null
}

export interface LineDiffBounds {
  maxEditLength: number
  timeoutMs: number
}

export const DEFAULT_BOUNDS: LineDiffBounds = { maxEditLength: MAX_EDIT_LENGTH, timeoutMs: DIFF_TIMEOUT_MS }

/** Diff two texts by line within `bounds`. A created file's hunk starts at `-0,0`, a deleted one's at `+0,0`. */
export function lineDiff(oldText: string, newText: string, options: { countsOnly?: boolean; bounds?: LineDiffBounds } = {}): LineDiff {
  const bounds = options.bounds ?? DEFAULT_BOUNDS
  const started = Date.now()
  // Only adding or only removing lines (a file created, deleted, a block inserted) costs jsdiff
  // time in proportion to the lines, not their square: not bounded by edits, so a 38,000-line
  // file created still shows its lines. The clock bounds it still.
  const maxEditLength = addsOrRemovesOnly(oldText, newText) ? undefined : bounds.maxEditLength
  const patch = structuredPatch('a', 'b', oldText, newText, '', '', { context: 3, timeout: bounds.timeoutMs, ...(maxEditLength === undefined ? {} : { maxEditLength }) })
  if (!patch) {
    const stoppedBy = Date.now() - started >= bounds.timeoutMs ? 'time' : 'edits'
    return { tooManyChanges: true, added: 0, removed: 0, patch: options.countsOnly ? '' : sideBySidePatch(oldText, newText), stoppedBy }
  }
  let added = 0
  let removed = 0
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added += 1
      else if (line.startsWith('-')) removed += 1
    }
  }
  const text = options.countsOnly ? '' : patch.hunks.map((hunk) => [hunkHeader(hunk.oldStart, hunk.oldLines, hunk.newStart, hunk.newLines), ...hunk.lines].join('\n')).join('\n')
  return { tooManyChanges: false, added, removed, patch: text, stoppedBy: null }
}

/** True when, past their common first and last lines, one text has no line left. */
function addsOrRemovesOnly(oldText: string, newText: string): boolean {
  const before = linesOf(oldText)
  const after = linesOf(newText)
  const shortest = Math.min(before.length, after.length)
  let head = 0
  while (head < shortest && before[head] === after[head]) head += 1
  let tail = 0
  while (tail < shortest - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail += 1
  return before.length === head + tail || after.length === head + tail
}

const hunkHeader = (oldStart: number, oldLines: number, newStart: number, newLines: number) =>
  `@@ -${oldLines === 0 ? 0 : oldStart},${oldLines} +${newLines === 0 ? 0 : newStart},${newLines} @@`

/**
 * One hunk removing every old line and adding every new one: a true patch (it applies), not a
 * minimal one, so a split view shows the two versions side by side. Linear in the texts' size.
 */
export function sideBySidePatch(oldText: string, newText: string): string {
  const oldLines = linesOf(oldText)
  const newLines = linesOf(newText)
  if (oldLines.length === 0 && newLines.length === 0) return ''
  const out = [hunkHeader(1, oldLines.length, 1, newLines.length)]
  pushLines(out, '-', oldLines, oldText)
  pushLines(out, '+', newLines, newText)
  return out.join('\n')
}

function linesOf(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n')
  if (text.endsWith('\n')) lines.pop()
  return lines
}

function pushLines(out: string[], sign: '-' | '+', lines: readonly string[], text: string): void {
  for (const line of lines) out.push(sign + line)
  if (lines.length > 0 && !text.endsWith('\n')) out.push('\\ No newline at end of file')
}
