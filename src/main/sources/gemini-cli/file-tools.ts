import type { FileTools } from '../adapter'

/**
 * Gemini CLI's built-in tools by the names its chat recordings give them (packages/core/src/tools:
 * each tool's `Name`). `write_file` and `replace` change files (file-edits.ts); `run_shell_command`
 * runs commands. `save_memory` writes Gemini's own GEMINI.md in its home folder, not the workspace.
 */
export const GEMINI_CLI_FILE_TOOLS: FileTools = {
  writes: ['write_file', 'replace'],
  reads: ['read_file', 'read_many_files', 'list_directory', 'glob', 'search_file_content', 'google_web_search', 'web_fetch', 'save_memory', 'write_todos', 'delegate_to_agent', 'invoke_agent'],
  shell: ['run_shell_command']
}
