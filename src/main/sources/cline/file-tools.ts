import type { FileTools } from '../adapter'

/**
 * Cline's tools by what they do to files, from its source: Cline 3.x `ClineDefaultTool`
 * (src/shared/tools.ts; write_to_file, replace_in_file and new_rule share WriteToFileToolHandler),
 * Cline 4's SDK `DefaultToolNames` (sdk/packages/core/src/extensions/tools/constants.ts), and the
 * tools Roo Code and Kilo Code add (xml-tools.ts lists the names their XML calls use).
 */
export const clineFileTools: FileTools = {
  writes: [
    'write_to_file', 'replace_in_file', 'new_rule', 'apply_patch',
    'editor',
    'apply_diff', 'insert_content', 'search_and_replace', 'generate_image'
  ],
  reads: [
    'read_file', 'search_files', 'list_files', 'list_code_definition_names',
    'read_files', 'search_codebase',
    'codebase_search', 'fetch_instructions'
  ],
  shell: ['execute_command', 'run_commands']
}
