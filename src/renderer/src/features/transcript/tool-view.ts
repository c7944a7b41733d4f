import { structuredPatch } from 'diff'
import { MAX_EDIT_LENGTH, TOO_MANY_CHANGES } from '../../../../shared/line-diff-limits'
import type { Message } from '../../../../shared/contract'
import { applyPatchFromCommand, parseApplyPatch, type PatchOp } from '../../../../shared/apply-patch'
import { renderCommand, shellInvocation } from '../../../../shared/shell-invocation'

type Json = Message['toolInput']
type JsonObject = { [key: string]: Json }

export type DiffLineKind = 'add' | 'del' | 'context'
export interface ToolDiffLine {
  kind: DiffLineKind
  text: string
}

/** One block of a file edit: the lines it replaced and wrote, with a heading when it has one. */
export interface ToolHunk {
  /** `@@ fn()` for a patch hunk with context, "every occurrence" for a replace-all edit; else null. */
  heading: string | null
  lines: ToolDiffLine[]
}

/** What a tool call did (or asked to do) to one file, as its input says. */
export interface ToolFileEdit {
  /** Relative to the workspace when inside it, else as the agent wrote it. */
  path: string
  /** `edit`: replaced text; `write`: the whole content written; `create` / `delete`: a patch's added or deleted file. */
  op: 'edit' | 'write' | 'create' | 'delete'
  /** Renamed to (a patch's `Move to:`), relative like `path`. */
  movedTo: string | null
  hunks: ToolHunk[]
  added: number
  removed: number
}

/** How the transcript shows a tool call: as file diffs, as a terminal command, or as its input (null). */
export type ToolView = { kind: 'edits'; files: ToolFileEdit[] } | { kind: 'terminal'; command: string; cwd: string | null } | null

const EDIT_TOOLS = new Set(['edit', 'replace', 'str_replace', 'multiedit', 'write', 'write_file', 'create_file', 'write_to_file', 'str_replace_based_edit_tool', 'str_replace_editor'])
/** Shell tools of the other agents (Codex's are in shared/shell-invocation.ts). */
const COMMAND_TOOLS = new Set(['bash', 'run_shell_command', 'execute_command', 'shell'])

const str = (o: JsonObject, ...keys: string[]): string | null => {
  for (const key of keys) {
    const value = o[key]
    if (typeof value === 'string') return value
  }
  return null
}
const isObject = (value: Json): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value)

/**
 * How to show a tool call, from its input as the agent wrote it: Edit / MultiEdit / Write /
 * str_replace(-based edit tool) / apply_patch (and their look-alikes in other agents) as diffs,
 * shell commands as a terminal block; null for anything else (its JSON input is shown).
 */
export function toolView(toolName: string | null, input: Json, root: string | null): ToolView {
  if (!toolName) return null
  const name = toolName.toLowerCase()
  const rel = (path: string) => relativePath(path, root)
  if (name === 'apply_patch' || name === 'applypatch') {
    const text = typeof input === 'string' ? input : isObject(input) ? str(input, 'input', 'patch') : null
    return text === null ? null : patchView(text, rel)
  }
  const shell = shellInvocation(toolName, input)
  if (shell) {
    const patch = applyPatchFromCommand(shell.command)
    if (patch) return patchView(patch.patch, (path) => relativePath(joinPath(shell.workdir, patch.cd, path), root))
    return { kind: 'terminal', command: renderCommand(shell.command), cwd: shell.workdir }
  }
  if (!isObject(input)) return null
  if (COMMAND_TOOLS.has(name)) {
    const command = str(input, 'command', 'cmd')
    return command === null ? null : { kind: 'terminal', command, cwd: str(input, 'cwd', 'workdir', 'dir_path', 'directory') }
  }
  if (!EDIT_TOOLS.has(name)) return null
  const path = str(input, 'file_path', 'filePath', 'path', 'absolute_path')
  if (path === null) return null
  const file = fileEdit(name, input)
  return file ? { kind: 'edits', files: [{ ...file, path: rel(path), movedTo: null }] } : null
}

type Edit = Omit<ToolFileEdit, 'path' | 'movedTo'>

function fileEdit(name: string, input: JsonObject): Edit | null {
  const command = str(input, 'command')
  // str_replace_based_edit_tool / str_replace_editor: one tool, a command per call.
  if (command !== null && (name === 'str_replace_based_edit_tool' || name === 'str_replace_editor')) {
    if (command === 'create') return written(str(input, 'file_text', 'content') ?? '')
    if (command === 'str_replace') return replaced([{ old: str(input, 'old_str') ?? '', new: str(input, 'new_str') ?? '', all: false }])
    if (command === 'insert') {
      const line = input.insert_line
      return withCounts([{ heading: typeof line === 'number' ? `after line ${line}` : null, lines: linesOf(str(input, 'new_str', 'insert_text') ?? '', 'add') }], 'edit')
    }
    return null // view, undo_edit: nothing written
  }
  if (Array.isArray(input.edits)) {
    const edits = input.edits.filter(isObject).map((edit) => ({ old: str(edit, 'old_string', 'oldString') ?? '', new: str(edit, 'new_string', 'newString') ?? '', all: edit.replace_all === true }))
    return replaced(edits)
  }
  const content = str(input, 'content', 'file_text')
  const oldText = str(input, 'old_string', 'oldString', 'old_str')
  const newText = str(input, 'new_string', 'newString', 'new_str')
  if (oldText !== null && newText !== null) return replaced([{ old: oldText, new: newText, all: input.replace_all === true || input.replaceAll === true }])
  if (content !== null) return written(content)
  return null
}

/** Lines of `text` (a final newline ends the last line, it does not start an empty one). */
function linesOf(text: string, kind: DiffLineKind): ToolDiffLine[] {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  return lines.map((line) => ({ kind, text: line }))
}

function withCounts(hunks: ToolHunk[], op: Edit['op']): Edit {
  let added = 0
  let removed = 0
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.kind === 'add') added++
      else if (line.kind === 'del') removed++
    }
  }
  return { op, hunks, added, removed }
}

const written = (content: string): Edit => withCounts([{ heading: null, lines: linesOf(content, 'add') }], 'write')

/** Each replacement as a line diff of its old and new text, the unchanged lines around kept as context. */
function replaced(edits: { old: string; new: string; all: boolean }[]): Edit {
  const hunks = edits.map((edit) => {
    const lines: ToolDiffLine[] = []
    // Bounded as every diff (R27): past the bounds, the old text removed and the new one added.
    const patch = structuredPatch('a', 'b', withNewline(edit.old), withNewline(edit.new), '', '', { context: Number.MAX_SAFE_INTEGER, maxEditLength: MAX_EDIT_LENGTH, timeout: 500 })
    if (!patch) return { heading: TOO_MANY_CHANGES, lines: [...linesOf(edit.old, 'del'), ...linesOf(edit.new, 'add')] }
    for (const hunk of patch.hunks) {
      for (const raw of hunk.lines) {
        if (raw.startsWith('\\')) continue
        lines.push({ kind: raw[0] === '+' ? 'add' : raw[0] === '-' ? 'del' : 'context', text: raw.slice(1) })
      }
    }
    // Identical old and new text (a no-op edit) still shows what it touched.
    if (lines.length === 0) lines.push(...linesOf(edit.new, 'context'))
    return { heading: edit.all ? 'every occurrence' : null, lines }
  })
  return withCounts(hunks, 'edit')
}

const withNewline = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`)

function patchView(text: string, rel: (path: string) => string): ToolView {
  const parsed = parseApplyPatch(text)
  if (!parsed.ok) return null
  return { kind: 'edits', files: parsed.ops.map((op) => patchFile(op, rel)) }
}

function patchFile(op: PatchOp, rel: (path: string) => string): ToolFileEdit {
  if (op.type === 'add') return { ...withCounts([{ heading: null, lines: linesOf(op.content, 'add') }], 'create'), path: rel(op.path), movedTo: null }
  if (op.type === 'delete') return { op: 'delete', path: rel(op.path), movedTo: null, hunks: [], added: 0, removed: 0 }
  const hunks: ToolHunk[] = []
  // Each hunk line ends with a newline: the split's last element is not a line.
  for (const line of op.hunks.split('\n').slice(0, -1)) {
    if (line.startsWith('@@')) {
      hunks.push({ heading: line.slice(2).trim() || null, lines: [] })
      continue
    }
    if (line === '*** End of File') continue
    let hunk = hunks.at(-1)
    if (!hunk) {
      hunk = { heading: null, lines: [] }
      hunks.push(hunk)
    }
    const sign = line[0]
    hunk.lines.push({ kind: sign === '+' ? 'add' : sign === '-' ? 'del' : 'context', text: line.slice(1) })
  }
  return { ...withCounts(hunks.filter((hunk) => hunk.lines.length > 0 || hunk.heading !== null), 'edit'), path: rel(op.path), movedTo: op.movePath === null ? null : rel(op.movePath) }
}

/**
 * The files of an edit with at most `max` lines shown in all (the rest folded, counted per file
 * in `hidden`): a call that writes a 5,000-line file stays readable in the transcript.
 */
export function limitLines(files: readonly ToolFileEdit[], max: number): (ToolFileEdit & { hidden: number })[] {
  let left = max
  return files.map((file) => {
    let hidden = 0
    const hunks = file.hunks.map((hunk) => {
      const lines = hunk.lines.slice(0, Math.max(0, left))
      hidden += hunk.lines.length - lines.length
      left -= lines.length
      return { ...hunk, lines }
    })
    return { ...file, hunks: hunks.filter((hunk, index) => index === 0 || hunk.lines.length > 0), hidden }
  })
}

/** `path` relative to `root` when it lies inside it (`/w/src/a.ts` in `/w` → `src/a.ts`), else unchanged. */
export function relativePath(path: string, root: string | null): string {
  if (!root || !path.startsWith('/')) return path
  const base = root.endsWith('/') ? root : `${root}/`
  return path.startsWith(base) ? path.slice(base.length) : path === root ? '.' : path
}

/** A patch path as Codex resolves it: against the `cd` of the command, then its working folder. */
function joinPath(workdir: string | null, cd: string | null, path: string): string {
  let base = workdir
  if (cd) base = cd.startsWith('/') || !base ? cd : `${base.replace(/\/$/, '')}/${cd}`
  if (path.startsWith('/') || !base) return path
  return `${base.replace(/\/$/, '')}/${path}`
}
