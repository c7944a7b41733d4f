import type { ChangeNotCapturedRecord, FileEditRecord, StringEdit } from '../records'
import type { PendingCall, ParserState } from './state'

/**
 * File changes known from a Claude Code call's own input, for results that carry no
 * `toolUseResult` (sub-agents' files of 2.1.x write only the result's text for many Write and
 * Edit calls) and for NotebookEdit, whose result may or may not hold the notebook.
 *
 * The rule, from how Claude Code's tools work:
 * - Write's `content` is the whole file after; "File created successfully at: …" says there was
 *   none before, otherwise the content before is the one the importer last knew of the file.
 * - Edit / MultiEdit succeed only on a file unchanged since the agent last read or wrote it, and
 *   only when `old_string` occurs once (or `replace_all`). So the strings, applied exactly to the
 *   content the agent itself wrote last, give the file after. If the agent read the file again
 *   since its last change of it, someone else may have changed it in between: the content it
 *   edited is then not known, and the call is reported instead.
 * - NotebookEdit edits one cell of the notebook's JSON; without the notebook after the edit
 *   (`updated_file` of its result) the change is reported.
 */

/** The tools whose calls change files, by the names Claude Code gives them. */
export const WRITE_TOOLS: readonly string[] = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit']

/**
 * What the calls waiting for their result may keep of their input, in characters, all together:
 * the parser state is saved with every chunk and read on a parse thread of 64 MB, and calls
 * interrupted before their result stay in it (up to the 500 pending calls state.ts keeps).
 * A call past it is reported as not captured should its result carry no file.
 */
const MAX_KEPT_INPUT = 8 * 1024 * 1024

function keptSize(file: CallFile | undefined): number {
  if (!file) return 0
  return (file.content?.length ?? 0) + (file.edits ?? []).reduce((sum, edit) => sum + edit.oldString.length + edit.newString.length, 0)
}

type CallFile = NonNullable<PendingCall['file']>

function text(fields: Record<string, unknown>, key: string): string | null {
  const value = fields[key]
  return typeof value === 'string' ? value : null
}

function stringEdit(value: unknown): StringEdit | null {
  if (value === null || typeof value !== 'object') return null
  const fields = value as Record<string, unknown>
  const oldString = text(fields, 'old_string')
  const newString = text(fields, 'new_string')
  if (oldString === null || newString === null) return null
  return { oldString, newString, replaceAll: fields.replace_all === true }
}

/** What a Write / Edit / MultiEdit / NotebookEdit call's input says of the file; undefined for other tools. */
export function fileOfCall(state: ParserState, name: string, fields: Record<string, unknown>): CallFile | undefined {
  const path = text(fields, name === 'NotebookEdit' ? 'notebook_path' : 'file_path')
  if (!WRITE_TOOLS.includes(name) || path === null || path.trim() === '') return undefined
  let file: CallFile = { path }
  if (name === 'Write') {
    const content = text(fields, 'content')
    if (content !== null) file = { path, content }
  } else if (name === 'Edit' || name === 'MultiEdit') {
    const raw = name === 'Edit' ? [fields] : Array.isArray(fields.edits) ? (fields.edits as unknown[]) : []
    const edits = raw.map(stringEdit)
    if (edits.length > 0 && edits.every((edit) => edit !== null)) file = { path, edits }
  }
  const waiting = state.pending.entries().reduce((sum, [, call]) => sum + keptSize(call.file), 0)
  return waiting + keptSize(file) > MAX_KEPT_INPUT ? { path, dropped: true } : file
}

/** A Read call: the file may hold what someone else wrote since the agent's last change of it. */
export function noteRead(state: ParserState, name: string, fields: Record<string, unknown>): void {
  const path = text(fields, 'file_path')
  if (name === 'Read' && path) state.reread.set(path, true)
}

/** The change a call without `toolUseResult` made, from its input: an edit to journal, or a report. */
export function editOfCall(
  state: ParserState,
  call: PendingCall & { file: CallFile },
  resultText: string,
  toolCallId: string,
  offset: number
): FileEditRecord | ChangeNotCapturedRecord {
  const { file, name } = call
  const notCaptured = (reason: string): ChangeNotCapturedRecord => ({ kind: 'change-not-captured', offset, toolCallId, tool: name, path: file.path, reason })
  if (name === 'NotebookEdit') return notCaptured('Claude Code wrote no result for this NotebookEdit, so the notebook after the cell edit is not known')
  if (file.dropped) return notCaptured(`Claude Code wrote no result for this ${name}, and its input was too large to keep until then`)
  const record: FileEditRecord = { kind: 'file-edit', offset, toolCallId, path: file.path }
  if (file.content !== undefined) {
    record.after = file.content
    if (/^File created successfully at/.test(resultText.trim())) record.before = null
  } else if (file.edits !== undefined) {
    if (state.reread.has(file.path)) {
      return notCaptured(`Claude Code wrote no result for this ${name}, and the agent read the file again after its last known change (someone else may have changed it)`)
    }
    record.edits = file.edits
  } else {
    return notCaptured(`Claude Code wrote no result for this ${name}, and its input does not say what it wrote`)
  }
  return record
}

/** A NotebookEdit result: the notebook before and after when Claude Code kept them, else a report. */
export function notebookEdit(toolUseResult: unknown, path: string | null, toolCallId: string, offset: number): FileEditRecord | ChangeNotCapturedRecord | null {
  const fields = toolUseResult !== null && typeof toolUseResult === 'object' ? (toolUseResult as Record<string, unknown>) : {}
  const notebook = text(fields, 'notebook_path') ?? path
  if (notebook === null) return null
  const after = text(fields, 'updated_file')
  if (after === null) {
    return { kind: 'change-not-captured', offset, toolCallId, tool: 'NotebookEdit', path: notebook, reason: "Claude Code's NotebookEdit result keeps the cell's new source, not the notebook after the edit" }
  }
  const before = text(fields, 'original_file')
  const record: FileEditRecord = { kind: 'file-edit', offset, toolCallId, path: notebook, after }
  if (before !== null) record.before = before
  return record
}
