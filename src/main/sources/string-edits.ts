import type { StringEdit } from './records'

/**
 * `text` with the replacements applied the way an edit tool that refuses ambiguity does it
 * (Claude Code's Edit: `old_string` must occur exactly once unless `replace_all`; an empty
 * `old_string` only creates a file that is empty or absent). Null when a replacement does not
 * fit: the text is then not the one the tool edited, and the result would be a guess.
 */
export function applyStringEdits(text: string, edits: readonly StringEdit[]): string | null {
  let current = text
  for (const edit of edits) {
    if (edit.oldString === '') {
      if (current !== '') return null
      current = edit.newString
      continue
    }
    const first = current.indexOf(edit.oldString)
    if (first === -1) return null
    if (edit.replaceAll) {
      current = current.split(edit.oldString).join(edit.newString)
      continue
    }
    if (current.indexOf(edit.oldString, first + 1) !== -1) return null
    current = current.slice(0, first) + edit.newString + current.slice(first + edit.oldString.length)
  }
  return current
}
