import type { FileTools } from '../adapter'

/**
 * OpenCode's built-in tools by the id a `tool` part names (packages/opencode/src/tool/registry.ts
 * and the tools before it: `patch`, `multiedit`, `list`, `todoread` in older versions). The Kilo
 * CLI, its fork, keeps the same ids. `edit`, `write`, `multiedit` and `apply_patch` (`patch`)
 * change files; `bash` runs a shell command. `task` starts a child session, whose own calls count
 * there; `batch` and code mode's `execute` run other tools and are left out (a call of theirs
 * naming a path is an unknown tool that may have changed files).
 */
export const openCodeFileTools: FileTools = {
  writes: ['edit', 'write', 'multiedit', 'apply_patch', 'patch'],
  reads: ['read', 'glob', 'grep', 'list', 'ls', 'codesearch', 'webfetch', 'websearch', 'todowrite', 'todoread', 'task', 'skill', 'question', 'lsp', 'plan_enter', 'plan_exit', 'reload', 'invalid'],
  shell: ['bash']
}
