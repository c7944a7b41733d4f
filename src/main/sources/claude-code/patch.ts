/**
 * Rebuilding a file from what Claude Code's Edit / Write / MultiEdit results report: the whole
 * file before (`originalFile`) and either the hunks of the change (`structuredPatch`, jsdiff's
 * structured-patch format) or the strings the tool replaced.
 */

/** One jsdiff structured-patch hunk: `lines` start with ' ', '-', '+' or '\' ("No newline at end of file"). */
export interface PatchHunk {
  oldStart: number
  oldLines: number
  newStart: number
  newLines: number
  lines: string[]
}

/**
 * `original` with the hunks applied, or null when a hunk's context or removed lines do not match
 * the text where the hunk says they are (the caller then falls back to another way, or keeps
 * only the patch text). jsdiff positions are 1-based and `oldStart` names the first line of the
 * hunk even when `oldLines` is 0, so the hunk always starts at line index `oldStart - 1`.
 */
export function applyStructuredPatch(original: string, hunks: readonly PatchHunk[]): string | null {
  const oldNewline = original.endsWith('\n')
  const lines = original === '' ? [] : (oldNewline ? original.slice(0, -1) : original).split('\n')
  const out: string[] = []
  let next = 0 // index in `lines` of the first line not yet copied
  let newNewline = oldNewline
  for (const hunk of [...hunks].sort((a, b) => a.oldStart - b.oldStart)) {
    const start = Math.max(0, hunk.oldStart - 1)
    if (start < next || start > lines.length) return null
    out.push(...lines.slice(next, start))
    let at = start
    let removed = 0
    let added = 0
    let previous: string | undefined
    let newSideLines = 0
    let lastNewSideMissesNewline = false
    for (const line of hunk.lines) {
      const mark = line[0]
      if (mark === '\\') {
        // "\ No newline at end of file": the line before it is the last of its side(s).
        if (previous === ' ' || previous === '-') {
          if (at !== lines.length || oldNewline) return null
        }
        if (previous === ' ' || previous === '+') lastNewSideMissesNewline = true
        previous = mark
        continue
      }
      const text = line.slice(1)
      if (mark === ' ' || mark === '-') {
        if (at >= lines.length || lines[at] !== text) return null
        at++
        if (mark === ' ') out.push(text)
        else removed++
      } else if (mark === '+') {
        out.push(text)
        added++
      } else {
        return null
      }
      if (mark !== '-') {
        newSideLines++
        lastNewSideMissesNewline = false
      }
      previous = mark
    }
    if (at - start !== hunk.oldLines || newSideLines !== hunk.newLines || hunk.oldLines - removed + added !== hunk.newLines) return null
    next = at
    // A hunk that reaches the end of the old file decides how the new one ends: without a
    // newline only if its last new-side line is marked so.
    if (next === lines.length) newNewline = newSideLines > 0 ? !lastNewSideMissesNewline : true
  }
  out.push(...lines.slice(next))
  if (out.length === 0) return ''
  return out.join('\n') + (newNewline ? '\n' : '')
}

/**
 * `original` with `oldString` replaced by `newString` the way Claude Code's Edit tool does it:
 * the first occurrence, or every one with `replaceAll`. Null when `oldString` does not occur
 * (the tool normalised quotes or whitespace before matching, which this does not repeat).
 * An empty `oldString` on an empty or missing file is Edit's way of creating one.
 */
export function applyStringEdit(original: string, oldString: string, newString: string, replaceAll: boolean): string | null {
  if (oldString === '') return original === '' ? newString : null
  const first = original.indexOf(oldString)
  if (first === -1) return null
  if (!replaceAll) return original.slice(0, first) + newString + original.slice(first + oldString.length)
  return original.split(oldString).join(newString)
}

/** The hunks as unified-diff text (`@@ -a,b +c,d @@` headers, lines as given). */
export function formatHunks(hunks: readonly PatchHunk[]): string {
  return hunks
    .map((hunk) => {
      // jsdiff's formatPatch convention: an empty side is named by the line before it.
      const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart
      const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart
      return [`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`, ...hunk.lines].join('\n')
    })
    .join('\n')
}
