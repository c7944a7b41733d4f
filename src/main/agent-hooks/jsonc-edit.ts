import { isDeepStrictEqual } from 'node:util'
import { findNodeAtLocation, parseTree, type Node, type ParseError } from 'jsonc-parser'

export type JsonPath = (string | number)[]

/**
 * Surgical edits of a JSON or JSONC settings file given as text: what is added goes after the
 * existing members, indented like the file, and nothing else moves — other keys, their order,
 * comments, spacing and line breaks stay byte for byte. Removing what was added gives back the
 * text as it was. jsonc-parser (Microsoft's) finds the places; its own `modify` is not used to
 * insert because it reformats the neighbouring lines. Every edit is checked: the result must
 * parse, and read back as the old value with just this change, or nothing is returned.
 */

/** The parsed value (comments and trailing commas allowed); throws with the place of the first error. */
export function parseJsonc(text: string, file: string): unknown {
  const errors: ParseError[] = []
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false })
  if (errors.length > 0 || !root) {
    const at = errors[0]?.offset ?? 0
    const line = text.slice(0, at).split('\n').length
    throw new Error(`${file} is not valid JSON (line ${line}); Retrace does not change it. Fix or remove it, then try again.`)
  }
  return valueOf(root)
}

/** The value at `path`, or undefined. */
export function valueAt(value: unknown, path: JsonPath): unknown {
  let current = value
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string | number, unknown>)[key]
  }
  return current
}

/**
 * Put `value` at `path`: appended to an array (the last key a number past its end, or -1), added
 * to an object, or replacing what is there. Missing objects and arrays on the way are created;
 * `created` lists the paths made (for an exact uninstall).
 */
export function setAt(text: string, path: JsonPath, value: unknown): { text: string; created: JsonPath[] } {
  const source = text.trim() === '' ? '{}\n' : text
  const root = tree(source)
  const existing = findNodeAtLocation(root, path)
  if (existing) {
    const depth = path.length
    return { text: checked(source, splice(source, existing.offset, existing.length, pretty(value, depth, style(source))), (old) => assign(old, path, value)), created: [] }
  }
  // The deepest container on the path that exists; what lies below it is built here.
  let base = path.length - 1
  while (base > 0 && !findNodeAtLocation(root, path.slice(0, base))) base--
  const container = base === 0 ? root : (findNodeAtLocation(root, path.slice(0, base)) as Node)
  const isArray = (key: string | number | undefined) => typeof key === 'number'
  let member: unknown = value
  for (let at = path.length - 1; at > base; at--) member = isArray(path[at]) ? [member] : { [path[at] as string]: member }
  const key = path[base] as string | number
  if ((container.type === 'array') !== isArray(key)) throw new Error(`Expected ${isArray(key) ? 'an array' : 'an object'} at ${path.slice(0, base).join('.') || 'the top'}; Retrace does not change this file.`)
  const edited = insertMember(source, container, base, container.type === 'array' ? undefined : String(key), member)
  const created = Array.from({ length: path.length - 1 - base }, (_, index) => path.slice(0, base + 1 + index))
  return { text: checked(source, edited, (old) => assign(old, path, value)), created }
}

/** Remove the member at `path` (an object's key or an array's element), leaving its neighbours and their comments as they are. */
export function removeAt(text: string, path: JsonPath): string {
  const root = tree(text)
  const target = findNodeAtLocation(root, path)
  if (!target) return text
  const container = findNodeAtLocation(root, path.slice(0, -1)) ?? root
  const node = container.type === 'object' ? (target.parent as Node) : target
  const siblings = container.children ?? []
  const index = siblings.indexOf(node)
  const depth = path.length - 1
  const { eol, unit } = style(text)
  const end = node.offset + node.length
  let edited: string
  const previous = siblings[index - 1]
  const next = siblings[index + 1]
  if (previous) {
    const gapStart = previous.offset + previous.length
    const gap = text.slice(gapStart, node.offset)
    // Only a comma and white space before it: what an insertion put there. Else keep the comments.
    edited = /^\s*,\s*$/.test(gap) ? splice(text, gapStart, end - gapStart, '') : splice(splice(text, node.offset, node.length, ''), gapStart + commaIn(gap), 1, '')
  } else if (next) {
    const gap = text.slice(end, next.offset)
    edited = /^\s*,\s*$/.test(gap) ? splice(text, node.offset, next.offset - node.offset, '') : splice(splice(text, end + commaIn(gap), 1, ''), node.offset, node.length, '')
  } else {
    const open = container.offset + 1
    const close = container.offset + container.length - 1
    const lead = eol + unit.repeat(depth + 1)
    const trail = eol + unit.repeat(depth)
    const exact = text.slice(open, node.offset) === lead && text.startsWith(trail, end)
    edited = exact ? splice(text, open, end + trail.length - open, '') : splice(text, open, close - open, '')
  }
  return checked(text, edited, (old) => unassign(old, path))
}

function tree(text: string): Node {
  const errors: ParseError[] = []
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false })
  if (!root || errors.length > 0) throw new Error('The file is not valid JSON; Retrace does not change it.')
  if (root.type !== 'object') throw new Error('The file does not hold a JSON object; Retrace does not change it.')
  return root
}

function insertMember(text: string, container: Node, depth: number, key: string | undefined, value: unknown): string {
  const { eol, unit } = style(text)
  const children = container.children ?? []
  const head = key === undefined ? '' : `${JSON.stringify(key)}: `
  const last = children.at(-1)
  if (!last) {
    const member = `${eol}${unit.repeat(depth + 1)}${head}${pretty(value, depth + 1, { eol, unit })}${eol}${unit.repeat(depth)}`
    return splice(text, container.offset + 1, 0, member)
  }
  const at = last.offset + last.length
  // A container written on one line gets the new member on that line too.
  const oneLine = !text.slice(container.offset, container.offset + container.length).includes('\n')
  const member = oneLine ? `, ${head}${JSON.stringify(value)}` : `,${eol}${unit.repeat(depth + 1)}${head}${pretty(value, depth + 1, { eol, unit })}`
  return splice(text, at, 0, member)
}

/** The file's line ending and indentation unit (two spaces when it has none to copy). */
function style(text: string): { eol: string; unit: string } {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const indented = /\n([ \t]+)["}\]]/.exec(text)
  const unit = indented?.[1]?.startsWith('\t') ? '\t' : indented ? ' '.repeat(Math.min(indented[1]?.length ?? 2, 8)) : '  '
  return { eol, unit }
}

function pretty(value: unknown, depth: number, { eol, unit }: { eol: string; unit: string }): string {
  return JSON.stringify(value, null, unit)
    .split('\n')
    .map((line, index) => (index === 0 ? line : unit.repeat(depth) + line))
    .join(eol)
}

/** Where the separating comma is in the text between two members (not inside a comment). */
function commaIn(gap: string): number {
  for (let at = 0; at < gap.length; at++) {
    if (gap.startsWith('//', at)) at = gap.indexOf('\n', at) < 0 ? gap.length : gap.indexOf('\n', at)
    else if (gap.startsWith('/*', at)) at = gap.indexOf('*/', at + 2) + 1
    else if (gap[at] === ',') return at
  }
  throw new Error('No comma between two members; Retrace does not change this file.')
}

function splice(text: string, at: number, length: number, insert: string): string {
  return text.slice(0, at) + insert + text.slice(at + length)
}

function checked(before: string, after: string, expect: (old: unknown) => unknown): string {
  const errors: ParseError[] = []
  const parsed = valueOfText(after, errors)
  if (errors.length > 0 || !isDeepStrictEqual(parsed, expect(valueOfText(before, [])))) {
    throw new Error('The edited file would not read back as before plus this change; nothing was written.')
  }
  return after
}

function valueOfText(text: string, errors: ParseError[]): unknown {
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false })
  return root ? valueOf(root) : undefined
}

function valueOf(node: Node): unknown {
  if (node.type === 'object') return Object.fromEntries((node.children ?? []).map((property) => [property.children?.[0]?.value as string, valueOf(property.children?.[1] as Node)]))
  if (node.type === 'array') return (node.children ?? []).map(valueOf)
  return node.value as unknown
}

function assign(old: unknown, path: JsonPath, value: unknown): unknown {
  const copy = structuredClone(old) ?? {}
  let current = copy as Record<string | number, unknown>
  path.forEach((key, index) => {
    const last = index === path.length - 1
    if (Array.isArray(current) && typeof key === 'number' && (key < 0 || key >= current.length)) {
      if (last) current.push(value)
      else current.push(typeof path[index + 1] === 'number' ? [] : {})
      if (!last) current = current.at(-1) as Record<string | number, unknown>
      return
    }
    if (last) current[key] = value
    else {
      current[key] ??= typeof path[index + 1] === 'number' ? [] : {}
      current = current[key] as Record<string | number, unknown>
    }
  })
  return copy
}

function unassign(old: unknown, path: JsonPath): unknown {
  const copy = structuredClone(old)
  const parent = valueAt(copy, path.slice(0, -1))
  const key = path.at(-1) as string | number
  if (Array.isArray(parent)) parent.splice(key as number, 1)
  else if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[key as string]
  return copy
}
