import type { FileTools } from '../adapter'

/**
 * Gemini CLI's tools as its chats name them. `save_memory` appends to Gemini's own GEMINI.md in
 * its home, never a workspace file: it reads as far as a rewind is concerned.
 */
export const fileTools: FileTools = {
  writes: ['write_file', 'replace', 'edit', 'smart_edit'],
  reads: [
    'read_file', 'read_many_files', 'list_directory', 'glob', 'search_file_content', 'grep', 'web_fetch', 'google_web_search',
    'save_memory', 'write_todos', 'invoke_agent', 'codebase_investigator', 'delegate_to_agent'
  ],
  shell: ['run_shell_command']
}
