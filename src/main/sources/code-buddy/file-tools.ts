import type { FileTools } from '../adapter'

/** Code Buddy's tools as its sessions name them. `str_replace_editor`'s `view` reads (R43's pipeline skips it). */
export const fileTools: FileTools = {
  writes: ['str_replace_editor', 'create_file', 'edit_file', 'write_file', 'multi_edit'],
  reads: ['view_file', 'search', 'list_files', 'read_file', 'web_search', 'web_fetch', 'todo', 'update_todo', 'task'],
  shell: ['bash']
}
