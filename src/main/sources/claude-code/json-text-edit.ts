/**
 * Set one top-level key of a JSON object given as text, changing nothing else: the other keys,
 * their order, spacing and line breaks stay byte for byte. A key already there has its value
 * replaced where it stands; a new one goes after the last member, indented like the first.
 * Plain JSON only (what Claude Code's settings.json is): text that does not parse as an object
 * is refused, and so is a result that would not read back as the same object plus this key.
 */
export function setTopLevelKey(text: string, key: string, value: unknown): string {
  const parsed = parseObject(text)
  const members = topLevelMembers(text)
  const valueText = JSON.stringify(value)
  // JSON.parse keeps the last of duplicate keys: that one is the value read.
  const existing = members.list.findLast((member) => member.key === key)
  let edited: string
  if (existing) {
    edited = text.slice(0, existing.valueStart) + valueText + text.slice(existing.valueEnd)
  } else if (members.list.length > 0) {
    const last = members.list[members.list.length - 1] as Member
    const first = members.list[0] as Member
    const lineStart = text.lastIndexOf('\n', first.keyStart) + 1
    const indent = lineStart > 0 ? text.slice(lineStart, first.keyStart) : ' '
    const separator = lineStart > 0 ? `,\n${/^\s*$/.test(indent) ? indent : '  '}` : `, `
    edited = `${text.slice(0, last.valueEnd)}${separator}${JSON.stringify(key)}: ${valueText}${text.slice(last.valueEnd)}`
  } else {
    edited = `${text.slice(0, members.open + 1)}\n  ${JSON.stringify(key)}: ${valueText}\n${text.slice(members.close)}`
  }
  if (JSON.stringify(parseObject(edited)) !== JSON.stringify({ ...parsed, [key]: value })) {
    throw new Error('The edited settings would not read back as before plus this key; nothing was written.')
  }
  return edited
}

function parseObject(text: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new Error(`It is not plain JSON (${error instanceof Error ? error.message : String(error)}); nothing was written.`, { cause: error })
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('It does not hold a JSON object; nothing was written.')
  return value as Record<string, unknown>
}

interface Member {
  key: string
  keyStart: number
  valueStart: number
  valueEnd: number
}

/** The members of the top-level object (text already known to parse), with where each sits. */
function topLevelMembers(text: string): { open: number; close: number; list: Member[] } {
  let at = skipSpace(text, 0)
  const open = at
  at += 1
  const list: Member[] = []
  for (;;) {
    at = skipSpace(text, at)
    if (text[at] === '}') return { open, close: at, list }
    if (text[at] === ',') {
      at = skipSpace(text, at + 1)
    }
    const keyStart = at
    const keyEnd = skipValue(text, at)
    const key = JSON.parse(text.slice(keyStart, keyEnd)) as string
    at = skipSpace(text, keyEnd) + 1 // the colon
    const valueStart = skipSpace(text, at)
    const valueEnd = skipValue(text, valueStart)
    list.push({ key, keyStart, valueStart, valueEnd })
    at = valueEnd
  }
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && /\s/.test(text[at] as string)) at += 1
  return at
}

/** The end of the JSON value starting at `at`. */
function skipValue(text: string, at: number): number {
  const first = text[at]
  if (first === '"') {
    let i = at + 1
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1
    return i + 1
  }
  if (first === '{' || first === '[') {
    let depth = 0
    let i = at
    do {
      const c = text[i]
      if (c === '"') {
        i = skipValue(text, i)
        continue
      }
      if (c === '{' || c === '[') depth += 1
      else if (c === '}' || c === ']') depth -= 1
      i += 1
    } while (depth > 0)
    return i
  }
  let i = at
  while (i < text.length && !/[\s,}\]]/.test(text[i] as string)) i += 1
  return i
}
