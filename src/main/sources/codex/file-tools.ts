import type { FileTools } from '../adapter'

/** Codex CLI's tools as its rollouts name them (function_call / custom_tool_call / local_shell_call). */
export const fileTools: FileTools = {
  writes: ['apply_patch'],
  reads: [
    'update_plan', 'web_search', 'view_image', 'spawn_agent', 'send_input', 'wait', 'close_agent', 'resume_agent',
    'list_mcp_resources', 'list_mcp_resource_templates', 'read_mcp_resource', 'request_user_input', 'js', 'read_file',
    'list_dir', 'grep_files'
  ],
  // write_stdin feeds a running exec_command session: what it changes is that command's.
  shell: ['shell', 'exec_command', 'local_shell', 'local_shell_call', 'container.exec', 'shell_command', 'write_stdin', 'unified_exec']
}
