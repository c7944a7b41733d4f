import type { FileTools } from '../adapter'

/**
 * LangGraph runs whatever tools the application gives its graph, so these are the names of the
 * file and shell tools LangChain ships for it: the FileManagementToolkit of langchain-community
 * (`write_file`, `copy_file`, `move_file`, `file_delete`, `read_file`, `list_directory`,
 * `file_search`), its ShellTool (`terminal`), and deepagents' filesystem tools (`write_file`,
 * `edit_file`, `read_file`, `ls`, `glob`, `grep`, `execute`). A checkpoint keeps a call's
 * arguments and the tool's answer, never the file before or after: every call of a writing tool
 * is a change not captured.
 */
export const langGraphFileTools: FileTools = {
  writes: ['write_file', 'edit_file', 'copy_file', 'move_file', 'file_delete'],
  reads: ['read_file', 'list_directory', 'file_search', 'ls', 'glob', 'grep', 'write_todos', 'task'],
  shell: ['terminal', 'execute', 'shell']
}

/** The file a writing tool's arguments name: FileManagementToolkit's `file_path` / `destination_path`, deepagents' `file_path`. */
export function writtenPath(args: unknown): string | null {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return null
  const fields = args as Record<string, unknown>
  for (const name of ['file_path', 'destination_path', 'path']) {
    const value = fields[name]
    if (typeof value === 'string' && value !== '') return value
  }
  return null
}

/** The command line of a shell tool's call: ShellTool's `commands` (a string or a list), deepagents' `command`. */
export function shellCommand(args: unknown): string | null {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return null
  const fields = args as Record<string, unknown>
  const value = fields.commands ?? fields.command
  if (typeof value === 'string' && value.trim() !== '') return value
  if (Array.isArray(value) && value.every((item) => typeof item === 'string') && value.length > 0) return value.join('\n')
  return null
}
