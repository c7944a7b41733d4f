import type { FileTools } from '../adapter'

/**
 * Gemini CLI's tools by the names its recordings give them (google-gemini/gemini-cli @ 5411f113,
 * packages/core/src/tools/definitions/base-declarations.ts and tool-names.ts; `EDIT_TOOL_NAMES`
 * is write_file and replace). `save_memory` (removed in 2026-05) appended a fact to the global
 * ~/.gemini/GEMINI.md, outside every workspace. `search_file_content` is grep_search's old name
 * (`TOOL_LEGACY_ALIASES`). Sub-agent calls (invoke_agent, delegate_to_agent, codebase_investigator)
 * change nothing themselves: the sub-agent's own recording holds its calls.
 */
export const fileTools: FileTools = {
  writes: ['write_file', 'replace', 'save_memory'],
  reads: [
    'read_file',
    'read_many_files',
    'list_directory',
    'glob',
    'grep_search',
    'search_file_content',
    'google_web_search',
    'web_fetch',
    'write_todos',
    'get_internal_docs',
    'activate_skill',
    'ask_user',
    'enter_plan_mode',
    'exit_plan_mode',
    'update_topic',
    'complete_task',
    'read_mcp_resource',
    'list_mcp_resources',
    'tracker_create_task',
    'tracker_update_task',
    'tracker_get_task',
    'tracker_list_tasks',
    'tracker_add_dependency',
    'tracker_visualize',
    'invoke_agent',
    'delegate_to_agent',
    'codebase_investigator'
  ],
  shell: ['run_shell_command']
}
