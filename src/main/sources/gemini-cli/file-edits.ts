import type { FileEditRecord } from '../records'
import { asObject, asString, partsText } from './parts'

/** Gemini CLI's file-writing tools (`WRITE_FILE_TOOL_NAME`, `EDIT_TOOL_NAME`). */
const WRITE_FILE = 'write_file'
const EDIT = 'replace'

/**
 * What a file held after each of the session's own edits (path as written → content), so that a
 * later `replace` without a recorded before-content can be replayed on it. Pure, per session.
 */
export type KnownContents = Map<string, string | null>

/**
 * The file change a successful `write_file` or `replace` made, from what Gemini CLI recorded:
 * - the tool's `resultDisplay` (`FileDiff`: `filePath`, `originalContent` — null for a new file
 *   — and `newContent`), which current versions keep with the call: whole before and after;
 * - otherwise the arguments: `write_file`'s `content` is the after (before: null when the result
 *   says the file was created, else what the importer journaled last), `replace`'s
 *   `old_string`→`new_string` replayed on the content this session wrote last.
 * Null when the call changed no file (another tool, or it did not succeed).
 */
export function fileEditOf(call: Record<string, unknown>, offset: number, known: KnownContents, checkpointed?: string): FileEditRecord | null {
  const name = asString(call.name)
  if ((name !== WRITE_FILE && name !== EDIT) || call.status !== 'success') return null
  const args = asObject(call.args) ?? {}
  const toolCallId = asString(call.id) ?? null
  const diff = asObject(call.resultDisplay)
  const diffPath = diff ? asString(diff.filePath) : undefined
  if (diff && diffPath !== undefined && typeof diff.newContent === 'string' && (typeof diff.originalContent === 'string' || diff.originalContent === null)) {
    remember(known, [diffPath, asString(args.file_path)], diff.newContent)
    return { kind: 'file-edit', offset, toolCallId, path: diffPath, before: diff.originalContent, after: diff.newContent }
  }
  const path = asString(args.file_path)
  if (path === undefined) return null
  if (name === WRITE_FILE) {
    const content = asString(args.content)
    if (content === undefined) return null
    const created = /^Successfully created/.test(partsText(call.result))
    remember(known, [path], content)
    const before = created ? { before: null } : checkpointed !== undefined ? { before: checkpointed } : {}
    return { kind: 'file-edit', offset, toolCallId, path, ...before, after: content }
  }
  // The project's state just before the call (Gemini's checkpoint) beats what this session wrote.
  const before = checkpointed ?? known.get(path)
  const after = before === undefined ? undefined : replaced(before, asString(args.old_string), asString(args.new_string))
  if (after === undefined) {
    known.delete(path)
    // The importer reports it as not captured: neither whole content is known.
    return { kind: 'file-edit', offset, toolCallId, path }
  }
  remember(known, [path], after)
  return { kind: 'file-edit', offset, toolCallId, path, before, after }
}

/** A successful edit whose record kept no `FileDiff`: its before-content is worth looking up. */
export function needsBefore(call: Record<string, unknown>): boolean {
  const name = asString(call.name)
  const diff = asObject(call.resultDisplay)
  return (name === WRITE_FILE || name === EDIT) && call.status === 'success' && !(diff && 'originalContent' in diff)
}

/** `replace` on known content: an empty old_string creates the file; every occurrence is replaced. */
function replaced(before: string | null, oldString: string | undefined, newString: string | undefined): string | undefined {
  if (oldString === undefined || newString === undefined) return undefined
  if (before === null) return oldString === '' ? newString : undefined
  if (oldString === '' || !before.includes(oldString)) return undefined
  return before.split(oldString).join(newString)
}

function remember(known: KnownContents, paths: (string | undefined)[], content: string): void {
  for (const path of paths) if (path !== undefined) known.set(path, content)
}
