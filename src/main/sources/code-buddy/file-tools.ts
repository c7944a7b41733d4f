import type { FileTools } from '../adapter'

/**
 * Code Buddy's core tools (phuetz/code-buddy, src/codebuddy/tool-definitions/core-tools.ts,
 * `CORE_TOOLS` and the Morph `edit_file`): create_file / write_file write `content` whole;
 * str_replace_editor / patch replace `old_str` with `new_str`; apply_patch takes a
 * `*** Begin Patch` text; edit_file hands a sketch to another model. Names only were read (the
 * project is under the Business Source License).
 */
export const fileTools: FileTools = {
  writes: ['create_file', 'write_file', 'str_replace_editor', 'patch', 'apply_patch', 'edit_file'],
  reads: ['view_file', 'read_file', 'list_directory'],
  shell: ['bash', 'terminal', 'interactive_shell']
}
