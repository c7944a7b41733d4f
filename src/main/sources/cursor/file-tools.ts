import type { FileTools } from '../adapter'
import { isRecord } from '../plain-data'
import type { ChangeNotCapturedRecord } from '../records'

/**
 * Cursor's tools by the names its stores give them. Cursor is closed source: the names are those
 * its stores hold — composer bubbles' `toolFormerData.name` (`edit_file_v2`, `read_file_v2`,
 * `run_terminal_command_v2`…, and the unversioned names before them), the agent transcripts' and
 * CLI chats' names (`Write`, `StrReplace`, `Delete`, `Read`, `Shell`…), as fixtures/cursor and the
 * readers cited in its PROVENANCE files show them.
 */
export const cursorFileTools: FileTools = {
  writes: ['edit_file_v2', 'edit_file', 'search_replace', 'write', 'write_file', 'create_file', 'delete_file', 'apply_patch', 'Write', 'Edit', 'MultiEdit', 'StrReplace', 'Delete', 'ApplyPatch'],
  reads: [
    'read_file_v2', 'read_file', 'grep', 'grep_search', 'ripgrep_raw_search', 'glob_file_search', 'codebase_search', 'file_search', 'list_dir', 'list_dir_v2',
    'web_search', 'fetch_rules', 'read_lints', 'todo_write', 'task_v2', 'task',
    'Read', 'Grep', 'Glob', 'LS', 'SemanticSearch', 'WebSearch', 'WebFetch', 'Task', 'TodoWrite', 'AskQuestion', 'UpdateCurrentStep'
  ],
  shell: ['run_terminal_command_v2', 'run_terminal_cmd', 'Shell']
}

/** Where Cursor's file tools name the file they write. */
const PATH_FIELDS = ['relativeWorkspacePath', 'targetFile', 'target_file', 'filePath', 'file_path', 'path']

export function toolPath(input: unknown): string | null {
  if (!isRecord(input)) return null
  return PATH_FIELDS.map((field) => input[field]).find((value): value is string => typeof value === 'string' && value.length > 0) ?? null
}

/** A call of a writing tool whose change Retrace cannot journal, and why; null for any other tool. */
export function writeNotCaptured(tool: string, input: unknown, toolCallId: string | null, offset: number, reason: string): ChangeNotCapturedRecord | null {
  if (!cursorFileTools.writes.includes(tool)) return null
  return { kind: 'change-not-captured', offset, toolCallId, tool, path: toolPath(input), reason }
}
