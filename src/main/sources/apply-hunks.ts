/**
 * Apply the hunks of a Codex `*** Update File:` section (lines starting with ` `, `-`, `+`,
 * hunks separated by `@@` lines) to a file's text. Each hunk's old lines are searched from where
 * the previous hunk ended, first exactly, then ignoring trailing whitespace (as Codex's own
 * apply_patch does). Returns null when a hunk does not fit: the result would be a guess.
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
    const at = find(lines, hunk.old, cursor)
    if (at === -1) return null
    lines.splice(at, hunk.old.length, ...hunk.new)
    cursor = at + hunk.new.length
  }
  return lines.join('\n') + (hadFinalNewline || lines.length > 0 ? '\n' : '')
}

interface Hunk {
  old: string[]
  new: string[]
}

function parseHunks(patch: string): Hunk[] {
  const hunks: Hunk[] = []
  let current: Hunk | null = null
  for (const line of patch.replace(/\n+$/, '').split('\n')) {
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

function find(lines: string[], block: string[], from: number): number {
  for (const same of [(a: string, b: string) => a === b, (a: string, b: string) => a.trimEnd() === b.trimEnd()]) {
    for (const start of [from, 0]) {
      for (let i = start; i + block.length <= lines.length; i += 1) {
        if (block.every((text, k) => same(lines[i + k] ?? '', text))) return i
      }
    }
  }
  return -1
}
