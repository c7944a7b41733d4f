import { parseApplyPatch } from '../codex/apply-patch'
import { fileEdit } from '../codex/file-edits'
import type { ChangeNotCapturedRecord, FileEditRecord } from '../records'
import type { PendingEdit } from './parser-state'

// Copilot CLI's file tools and what their calls say of the files: `create` carries the whole new
// file, `edit` (and the older `str_replace_editor`) the replaced text; `apply_patch` (GPT models)
// Codex's patch format. A change is journaled only once its tool reported success.

type Args = Record<string, unknown>

function text(args: Args, key: string): string | undefined {
  const value = args[key]
  return typeof value === 'string' ? value : undefined
}

/** The file change a tool call is about to make, when its tool is one of the file tools. */
export function pendingEdit(tool: string, args: unknown): PendingEdit | null {
  if (tool === 'apply_patch') {
    const patch = typeof args === 'string' ? args : args && typeof args === 'object' ? (text(args as Args, 'input') ?? text(args as Args, 'patch')) : undefined
    return patch === undefined ? null : { tool, path: '', fileText: patch }
  }
  if (!args || typeof args !== 'object') return null
  const a = args as Args
  const path = text(a, 'path')
  if (!path) return null
  const command = tool === 'str_replace_editor' ? text(a, 'command') : tool
  if (command === 'create') {
    const fileText = text(a, 'file_text')
    return fileText === undefined ? null : { tool, path, fileText }
  }
  if (command === 'edit' || command === 'str_replace') {
    const oldStr = text(a, 'old_str')
    const newStr = text(a, 'new_str') ?? ''
    return oldStr === undefined ? null : { tool, path, oldStr, newStr }
  }
  return null
}

/**
 * The records of a successful file tool call. An edit is journaled as a patch applied to the
 * content Retrace knows: the unified diff the tool returned (its hunks have whole lines and
 * context), or else the replaced lines themselves.
 */
export function editRecords(edit: PendingEdit, offset: number, toolCallId: string, detailed: string | undefined, cwd: string | null): (FileEditRecord | ChangeNotCapturedRecord)[] {
  if (edit.tool === 'apply_patch') {
    const parsed = parseApplyPatch(edit.fileText ?? '')
    if (parsed.ok) return parsed.ops.map((op) => fileEdit(op, offset, toolCallId, cwd))
    return [{ kind: 'change-not-captured', offset, toolCallId, tool: 'apply_patch', path: null, reason: 'its patch does not parse' }]
  }
  if (edit.fileText !== undefined) return [{ kind: 'file-edit', offset, toolCallId, path: edit.path, before: null, after: edit.fileText }]
  return [{ kind: 'file-edit', offset, toolCallId, path: edit.path, patch: diffHunks(detailed) ?? replacementHunk(edit.oldStr ?? '', edit.newStr ?? '') }]
}

/** The hunks of a unified diff (from its first `@@` line: the `---`/`+++` headers are not hunk lines). */
function diffHunks(detailed: string | undefined): string | null {
  if (!detailed) return null
  const start = detailed.search(/^@@/m)
  return start === -1 ? null : detailed.slice(start)
}

function replacementHunk(oldStr: string, newStr: string): string {
  const lines = (value: string, marker: string) => (value === '' ? [] : value.replace(/\n$/, '').split('\n').map((line) => marker + line))
  return ['@@', ...lines(oldStr, '-'), ...lines(newStr, '+')].join('\n')
}
