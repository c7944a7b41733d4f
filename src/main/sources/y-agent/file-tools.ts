import type { FileTools } from '../adapter'

/** y-agent's tools as its store's messages name them; its own file journal gives their changes. */
export const fileTools: FileTools = {
  writes: ['file_write', 'file_create', 'file_edit', 'file_move', 'file_delete', 'file_patch'],
  reads: ['file_read', 'file_list', 'file_search', 'delegate_task', 'web_fetch', 'web_search'],
  shell: ['shell', 'bash', 'exec']
}
