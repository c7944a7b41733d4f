import type { FileTools } from '../adapter'

/** The headless agent's tools as its events name them; `memory_*` write its own database, not files. */
export const fileTools: FileTools = {
  writes: ['write', 'edit'],
  reads: ['ls', 'read', 'grep', 'glob', 'web_fetch', 'web_search', 'memory_write', 'memory_search', 'memory_read', 'memory_list', 'spawn_agent'],
  shell: ['bash']
}
