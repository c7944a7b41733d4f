import type { FileTools } from '../adapter'

/**
 * Codex's tools by the names its rollouts give them (codex-rs `tools/spec.rs`, seen in the real
 * rollouts of fixtures/codex and fixtures/conformance). `apply_patch` changes files (as a
 * function or a custom tool); the shell tools run commands, `write_stdin` types into one already
 * running, and `js` (the Desktop app's JavaScript runner) runs code that may write files. The rest plan, look, search or talk to other agents.
 */
export const CODEX_FILE_TOOLS: FileTools = {
  writes: ['apply_patch'],
  reads: [
    'update_plan', 'view_image', 'web_search', 'list_mcp_resources', 'list_mcp_resource_templates', 'read_mcp_resource',
    'spawn_agent', 'send_input', 'wait', 'close_agent', 'read_thread_terminal'
  ],
  shell: ['shell', 'local_shell', 'shell_command', 'exec_command', 'write_stdin', 'container.exec', 'js']
}
