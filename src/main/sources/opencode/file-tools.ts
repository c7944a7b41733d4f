import type { FileTools } from '../adapter'

/** OpenCode's (and Kilo's) built-in tools as its message parts name them (`part.tool`). */
export const fileTools: FileTools = {
  writes: ['write', 'edit', 'patch', 'apply_patch', 'multiedit'],
  reads: ['read', 'glob', 'grep', 'list', 'task', 'todowrite', 'todoread', 'webfetch', 'websearch', 'codesearch', 'skill', 'question', 'lsp', 'batch', 'plan_enter', 'plan_exit'],
  shell: ['bash']
}
