import type { FileTools } from '../adapter'

/** Cursor's tools: the composer's names (`edit_file`, `search_replace`…) and the agent transcripts' and CLI's (`Write`, `StrReplace`…). */
export const fileTools: FileTools = {
  writes: [
    'edit_file', 'edit_file_v2', 'search_replace', 'write', 'delete_file', 'edit_notebook', 'apply_patch', 'reapply',
    'Write', 'Edit', 'StrReplace', 'MultiEdit', 'Delete', 'EditNotebook', 'ApplyPatch'
  ],
  reads: [
    'read_file', 'read_file_v2', 'list_dir', 'codebase_search', 'grep_search', 'file_search', 'glob_file_search', 'web_search',
    'fetch_rules', 'todo_write', 'create_plan', 'read_lints', 'mcp', 'Read', 'Glob', 'Grep', 'LS', 'Task', 'TodoWrite',
    'WebSearch', 'WebFetch', 'ReadLints', 'SemanticSearch', 'ListDir', 'CreatePlan', 'AskQuestion'
  ],
  shell: ['run_terminal_cmd', 'run_terminal_command_v2', 'Shell', 'Bash', 'terminal']
}
