import type { FileTools } from '../adapter'

/**
 * CianaParrot's tools (seed 003, "Agent API", and emanueleielo/ciana-parrot @ d289c767: src/agent.py
 * `WorkspaceShellBackend(root_dir=workspace, virtual_mode=True)`, src/backend.py, src/events.py,
 * src/tools/): DeepAgents' FilesystemBackend sandboxed to the workspace — ls, read_file,
 * write_file, edit_file, glob, grep — the allow-listed `execute`, and the agent's own tools. host_execute runs on the host through the gateway:
 * a shell command too. schedule_task / cancel_task change data/scheduled_tasks.json, the
 * deployment's own state, not a workspace file.
 */
export const fileTools: FileTools = {
  writes: ['write_file', 'edit_file'],
  reads: ['ls', 'read_file', 'glob', 'grep', 'web_search', 'web_fetch', 'schedule_task', 'list_tasks', 'cancel_task', 'switch_model', 'write_todos', 'task'],
  shell: ['execute', 'host_execute']
}
