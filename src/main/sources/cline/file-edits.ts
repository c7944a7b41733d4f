import type { FileEditRecord, ShellCommandRecord } from '../records'

/** A tool call of the task, as the edit rules need it. */
export interface ToolCall {
  name: string
  input: Record<string, unknown>
  id: string
}

/** File contents the task has shown so far, by path (a Map will do). */
export interface KnownContents {
  get(path: string): string | undefined
  has(path: string): boolean
  set(path: string, content: string): void
  delete(path: string): void
}

const SEARCH_OPEN = /^(?:-{3,} SEARCH|<{3,} SEARCH)\s*$/
const DIVIDER = /^={3,}\s*$/
const REPLACE_CLOSE = /^(?:\+{3,} REPLACE|>{3,} REPLACE)\s*$/
/** Roo's `apply_diff` marks where a block starts (`:start_line:12`) above a `-------` line. */
const ROO_MARKER = /^:(?:start|end)_line:\s*\d*\s*$|^-{3,}\s*$/

/**
 * The file change a tool call made, once its result says it went through: `write_to_file` gives
 * the whole new content; `replace_in_file` (Cline) and `apply_diff` (Roo Code, Kilo Code) give
 * SEARCH/REPLACE blocks, turned into hunks that the importer applies to the content it knows.
 * `created` says the agent reported a new file (its content before was none).
 */
export function editOf(call: ToolCall, offset: number, created: boolean, known: KnownContents): FileEditRecord | null {
  const path = stringParam(call.input, 'path') ?? stringParam(call.input, 'absolutePath') ?? stringParam(call.input, 'file_path')
  if (!path) return null
  const base = { kind: 'file-edit' as const, offset, toolCallId: call.id, path }
  if (call.name === 'write_to_file') {
    const content = stringParam(call.input, 'content')
    if (content === undefined) return null
    known.set(path, content)
    return { ...base, ...(created ? { before: null } : {}), after: content }
  }
  if (call.name === 'editor') return editorEdit(call.input, base, created, known)
  if (call.name === 'replace_in_file' || call.name === 'apply_diff') {
    const diff = stringParam(call.input, 'diff')
    const patch = diff === undefined ? null : searchReplaceHunks(diff)
    return patch ? { ...base, patch } : null
  }
  return null
}

/**
 * Cline 4's `editor` (sdk `EditFileInputSchema`): `old_text` replaced once by `new_text`, `new_text`
 * inserted before the one-based `insert_line`, or a missing file created with `new_text`. With the
 * file's content known (an @-mentioned `file` block, an earlier edit) the whole change is known;
 * otherwise the replacement goes as a hunk for the importer to apply to the content it knows.
 */
function editorEdit(input: Record<string, unknown>, base: Omit<FileEditRecord, 'before' | 'after' | 'patch'>, created: boolean, known: KnownContents): FileEditRecord | null {
  const newText = stringParam(input, 'new_text')
  if (newText === undefined) return null
  const before = known.get(base.path)
  const oldText = stringParam(input, 'old_text')
  const insertLine = typeof input.insert_line === 'number' ? input.insert_line : Number(input.insert_line ?? Number.NaN)
  let after: string | undefined
  if (created) after = newText
  else if (before !== undefined && Number.isInteger(insertLine) && insertLine >= 1) {
    const lines = before.split('\n')
    lines.splice(insertLine - 1, 0, ...newText.replace(/\n$/, '').split('\n'))
    after = lines.join('\n')
  } else if (before !== undefined && oldText !== undefined && before.includes(oldText)) after = before.replace(oldText, () => newText)
  if (after !== undefined) {
    known.set(base.path, after)
    return { ...base, ...(created ? { before: null } : before !== undefined ? { before } : {}), after }
  }
  known.delete(base.path)
  if (oldText === undefined) return null
  return { ...base, patch: ['@@', ...oldText.split('\n').map((line) => `-${line}`), ...newText.split('\n').map((line) => `+${line}`)].join('\n') }
}

/** `execute_command` (Cline 3) and `run_commands` (Cline 4): shell commands whose changes to files are not captured. */
export function shellCommandsOf(call: ToolCall, offset: number): ShellCommandRecord[] {
  const commands = call.name === 'execute_command' ? [call.input.command] : call.name === 'run_commands' ? (Array.isArray(call.input.commands) ? call.input.commands : [call.input.command]) : []
  return commands.flatMap((command) => (typeof command === 'string' && command ? [{ kind: 'shell-command' as const, offset, toolCallId: call.id, command }] : []))
}

/** SEARCH/REPLACE blocks as `-`/`+` hunks separated by `@@` lines; null when none is complete. */
export function searchReplaceHunks(diff: string): string | null {
  const hunks: string[] = []
  let state: 'outside' | 'search' | 'replace' = 'outside'
  let search: string[] = []
  let replace: string[] = []
  for (const line of diff.replace(/\r\n/g, '\n').split('\n')) {
    if (state === 'outside') {
      if (SEARCH_OPEN.test(line)) [state, search, replace] = ['search', [], []]
    } else if (state === 'search') {
      if (DIVIDER.test(line)) state = 'replace'
      else if (!(search.length === 0 && ROO_MARKER.test(line))) search.push(line)
    } else if (REPLACE_CLOSE.test(line)) {
      hunks.push(['@@', ...search.map((text) => `-${text}`), ...replace.map((text) => `+${text}`)].join('\n'))
      state = 'outside'
    } else {
      replace.push(line)
    }
  }
  return hunks.length > 0 ? hunks.join('\n') : null
}

function stringParam(input: Record<string, unknown>, name: string): string | undefined {
  const value = input[name]
  return typeof value === 'string' ? value : undefined
}
