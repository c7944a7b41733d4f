import type { FileTools } from '../adapter'

/**
 * The headless agent's built-in tools (vinayprograms/agent, src/internal/tools/registry.go:
 * `registerBuiltins`; R5.2–R5.4 of its requirements). `write` writes `content` whole; `edit`
 * replaces the first `old` with `new` in the file it reads. The memory tools (memory_read,
 * memory_write, memory_list, memory_search) change the agent's own ~/.agent/memory.json, not a
 * workspace file; spawn_agent starts a sub-agent whose calls are its own.
 */
export const fileTools: FileTools = {
  writes: ['write', 'edit'],
  reads: ['read', 'glob', 'grep', 'ls', 'web_fetch', 'web_search', 'memory_read', 'memory_write', 'memory_list', 'memory_search', 'spawn_agent'],
  shell: ['bash']
}
