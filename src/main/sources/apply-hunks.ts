/**
 * Apply the hunks of a patch to a file's text: a Codex `*** Update File:` section (lines starting
 * with ` `, `-`, `+`, hunks separated by `@@` lines) or a unified diff (OpenCode's `filediff.patch`).
 * Each hunk's old lines are searched from where the previous hunk ended, first exactly, then
 * ignoring trailing whitespace (as Codex's own apply_patch does), then with the indentation OpenCode
 * cut off (see find). Returns null when a hunk does not fit: the result would be a guess.
 */
export function applyHunks(before: string, patch: string): string | null {
  const hadFinalNewline = before.endsWith('\n')
  const lines = before.split('\n')
  if (hadFinalNewline) lines.pop()
  let cursor = 0
  for (const hunk of parseHunks(patch)) {
    if (hunk.old.length === 0) {
      // Pure addition: at the end of the file unless a context line anchored it.
      lines.splice(lines.length, 0, ...hunk.new)
      cursor = lines.length
      continue
    }
    const found = find(lines, hunk.old, cursor)
    if (!found) return null
    // Lines that lost their common indentation get it back (blank ones stay as they were written).
    const added = found.indent ? hunk.new.map((text) => (text.trim() === '' ? text : found.indent + text)) : hunk.new
    lines.splice(found.at, hunk.old.length, ...added)
    cursor = found.at + added.length
  }
  return lines.join('\n') + (hadFinalNewline || lines.length > 0 ? '\n' : '')
}

interface Hunk {
  old: string[]
  new: string[]
}

/** A unified diff's hunk header, `@@ -12,8 +12,14 @@`: the counts of old and new lines that follow (1 when left out). */
const UNIFIED_HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/

/**
 * The hunks of a patch. In a unified diff (a hunk header with line counts) a hunk's body is
 * exactly as many lines as its header counts: what lies outside (the `Index:`, `====`, `---`
 * and `+++` file header jsdiff and git write before the first hunk, or between files) is not
 * content, even where it starts with `-` or `+`, and a removed line reading `-- …` inside a hunk
 * is. Codex hunks (bare `@@` separators, no header) are read line by line.
 */
function parseHunks(patch: string): Hunk[] {
  const hunks: Hunk[] = []
  let current: Hunk | null = null
  // Lines still due in the current unified hunk; null outside a unified diff's hunk.
  let due: { old: number; new: number } | null = null
  const lines = patch.replace(/\n+$/, '').split('\n')
  const unified = lines.some((line) => UNIFIED_HUNK.test(line))
  for (const line of lines) {
    const header = unified ? UNIFIED_HUNK.exec(line) : null
    if (header) {
      due = { old: Number(header[1] ?? 1), new: Number(header[2] ?? 1) }
      current = { old: [], new: [] }
      hunks.push(current)
      continue
    }
    if (unified) {
      if (!due || !current || (due.old <= 0 && due.new <= 0)) continue
      if (line.startsWith('\\')) continue // "\ No newline at end of file"
      const marker = line === '' ? ' ' : line[0]
      const text = line.slice(1)
      if (marker === ' ' && due.old > 0 && due.new > 0) {
        current.old.push(text)
        current.new.push(text)
        due.old -= 1
        due.new -= 1
      } else if (marker === '-' && due.old > 0) {
        current.old.push(text)
        due.old -= 1
      } else if (marker === '+' && due.new > 0) {
        current.new.push(text)
        due.new -= 1
      } else {
        due = null // not what the header counted: the hunk ends here
      }
      continue
    }
    if (line.startsWith('@@') || line.startsWith('*** End of File')) {
      current = null
      continue
    }
    const marker = line[0]
    if (marker !== ' ' && marker !== '-' && marker !== '+' && line !== '') continue
    if (!current) {
      current = { old: [], new: [] }
      hunks.push(current)
    }
    const text = line.slice(1)
    if (marker === '-' || marker === ' ' || line === '') current.old.push(text)
    if (marker === '+' || marker === ' ' || line === '') current.new.push(text)
  }
  return hunks.filter((hunk) => hunk.old.length > 0 || hunk.new.length > 0)
}

/**
 * Where a hunk's old lines are, searched from `from` then from the top: exactly, then ignoring
 * trailing whitespace, then (OpenCode's `trimDiff`, which cuts the indentation all lines of a
 * patch share) with one same whitespace prefix before every non-blank line: `indent` is that prefix.
 */
function find(lines: string[], block: string[], from: number): { at: number; indent: string } | null {
  for (const same of [(a: string, b: string) => a === b, (a: string, b: string) => a.trimEnd() === b.trimEnd()]) {
    for (const start of [from, 0]) {
      for (let i = start; i + block.length <= lines.length; i += 1) {
        if (block.every((text, k) => same(lines[i + k] ?? '', text))) return { at: i, indent: '' }
      }
    }
  }
  const anchor = block.findIndex((text) => text.trim() !== '')
  if (anchor === -1) return null
  for (const start of [from, 0]) {
    for (let i = start; i + block.length <= lines.length; i += 1) {
      const line = lines[i + anchor] ?? ''
      const indent = line.slice(0, line.length - (block[anchor] ?? '').length)
      if (indent === '' || indent.trim() !== '' || !line.endsWith(block[anchor] ?? '')) continue
      if (block.every((text, k) => (text.trim() === '' ? (lines[i + k] ?? '').trim() === '' : lines[i + k] === indent + text))) return { at: i, indent }
    }
  }
  return null
}
