import type { FileTools } from '../adapter'

/** GitHub Copilot CLI's tools as its session events name them. `str_replace_editor`'s `view` reads (R43's pipeline skips it). */
export const fileTools: FileTools = {
  writes: ['create', 'edit', 'str_replace_editor', 'apply_patch'],
  reads: [
    'view', 'glob', 'grep', 'task', 'report_intent', 'fetch', 'web_fetch', 'web_search', 'think', 'update_todo',
    'read_bash', 'list_bash', 'stop_bash', 'read_powershell', 'list_powershell', 'stop_powershell', 'ask_user', 'skill'
  ],
  shell: ['bash', 'powershell', 'write_bash', 'write_powershell']
}
