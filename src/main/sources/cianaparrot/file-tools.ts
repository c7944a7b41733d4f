import type { FileTools } from '../adapter'

/**
 * CianaParrot (a deepagents bot on LangGraph): its file tools write the agent's virtual files
 * (`/MEMORY.md`, `/notes/…`), outside any workspace; `execute` runs a command.
 */
export const fileTools: FileTools = {
  writes: ['write_file', 'edit_file'],
  reads: ['read_file', 'ls', 'glob', 'grep', 'write_todos', 'task', 'schedule_task', 'list_tasks', 'cancel_task', 'web_fetch', 'web_search'],
  shell: ['execute']
}
