import { isDeepStrictEqual } from 'node:util'
import { parse, stringify } from 'smol-toml'

/**
 * Codex's config.toml, edited as text so the user's comments and layout stay: Retrace adds one
 * table at the end of the file, after a comment line naming it, and removing it takes out exactly
 * those lines. smol-toml reads the file before and after, and an edit that would not read back as
 * the old table plus (or minus) Retrace's is refused. No npm TOML library both keeps comments and
 * is widely used, hence this narrow, checked edit.
 */

const MARKER = '# Added by `retrace hooks install` (`retrace mcp uninstall --agent codex` removes it).'

/** The file's tables as plain objects (smol-toml makes them without a prototype), for comparing. */
export function parseToml(text: string, file: string): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(parse(text))) as Record<string, unknown>
  } catch (error) {
    throw new Error(`${file} is not valid TOML (${(error as Error).message.split('\n')[0] ?? 'parse error'}); Retrace does not change it.`, { cause: error })
  }
}

/** Add `[<table>]` with `values` at the end of the file (the table must not exist yet). */
export function appendTable(text: string, table: string[], values: Record<string, unknown>, file: string): string {
  const old = parseToml(text, file)
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const header = `[${table.map(bareOrQuoted).join('.')}]`
  const body = stringify(values).trimEnd().split('\n').join(eol)
  // After a final newline, a blank line; a file without one gets only the line break it lacks,
  // which is how removeAddedTable knows to give the file back without it.
  const separator = text === '' ? '' : eol
  const edited = `${text}${separator}${MARKER}${eol}${header}${eol}${body}${eol}`
  const expected = structuredClone(old)
  let parent = expected
  for (const key of table.slice(0, -1)) parent = (parent[key] ??= {}) as Record<string, unknown>
  parent[table.at(-1) as string] = values
  let after: Record<string, unknown>
  try {
    after = parseToml(edited, file)
  } catch {
    throw new Error(`${file}: adding [${table.join('.')}] would not be valid TOML here (is ${table.slice(0, -1).join('.')} written as an inline table?); nothing was written.`)
  }
  if (!isDeepStrictEqual(after, expected)) throw new Error(`${file}: the edited file would not read back as before plus [${table.join('.')}]; nothing was written.`)
  return edited
}

/**
 * Remove the table Retrace added (its comment line, header and keys, and the blank line before
 * them, or the line break it added to a file without a final one), or undefined when the file has no such block (a table the user wrote stays).
 */
export function removeAddedTable(text: string, table: string[], file: string): string | undefined {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const header = `[${table.map(bareOrQuoted).join('.')}]`
  const lines = text.split(eol)
  const start = lines.findIndex((line, index) => line === MARKER && lines[index + 1]?.trim() === header)
  if (start < 0) return undefined
  let end = start + 2
  while (end < lines.length && !/^\s*\[/.test(lines[end] as string) && (lines[end] as string).trim() !== '') end++
  const from = start > 0 && lines[start - 1] === '' ? start - 1 : start
  // Last in the file, straight after a line of the user's: the file had no final newline.
  const lacked = from === start && start > 0 && end === lines.length - 1 && lines[end] === ''
  const kept = lacked ? lines.slice(0, from) : [...lines.slice(0, from), ...lines.slice(end)]
  const edited = kept.join(eol)
  const expected = structuredClone(parseToml(text, file))
  let parent = expected
  for (const key of table.slice(0, -1)) parent = parent[key] as Record<string, unknown>
  delete parent[table.at(-1) as string]
  // The parent table, if this added it, goes with it.
  if (table.length > 1 && Object.keys(parent).length === 0 && !new RegExp(`^\\s*\\[${table.slice(0, -1).map(bareOrQuoted).join('\\.')}\\]`, 'm').test(edited)) {
    let grand = expected
    for (const key of table.slice(0, -2)) grand = grand[key] as Record<string, unknown>
    delete grand[table.at(-2) as string]
  }
  if (!isDeepStrictEqual(parseToml(edited, file), expected)) throw new Error(`${file}: removing [${table.join('.')}] would change more than that table; nothing was written.`)
  return edited
}

function bareOrQuoted(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key)
}
