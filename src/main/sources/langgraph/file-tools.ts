import type { FileTools } from '../adapter'

/**
 * LangGraph threads call whatever tools the application defines: none is known to write or
 * read. A call whose input names a path is reported as an unknown tool (R43); deepagents'
 * file tools, which write the graph's state rather than the disk, are named for what they are.
 */
export const fileTools: FileTools = {
  writes: ['write_file', 'edit_file'],
  reads: ['read_file', 'ls', 'glob', 'grep', 'write_todos', 'task'],
  shell: ['execute']
}
