import type { FileTools } from '../adapter'

/** Cline's and Roo Code's tools (their XML tool names, and the Cline SDK's), from their sources and the fixtures. */
export const fileTools: FileTools = {
  writes: ['write_to_file', 'replace_in_file', 'apply_diff', 'insert_content', 'search_and_replace', 'editor', 'apply_patch', 'new_rule', 'edit_file'],
  reads: [
    'read_file', 'read_files', 'list_files', 'list_code_definition_names', 'search_files', 'codebase_search', 'browser_action',
    'use_mcp_tool', 'access_mcp_resource', 'ask_followup_question', 'attempt_completion', 'plan_mode_respond', 'act_mode_respond',
    'new_task', 'load_mcp_documentation', 'web_fetch', 'web_search', 'switch_mode', 'fetch_instructions', 'update_todo_list',
    'condense', 'summarize_task', 'report_bug', 'focus_chain', 'generate_explanation', 'run_slash_command', 'use_skill'
  ],
  shell: ['execute_command', 'run_commands']
}
