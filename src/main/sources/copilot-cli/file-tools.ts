import type { FileTools } from '../adapter'

/**
 * Copilot CLI's tools by what they do to files, as its writer names them (@github/copilot 1.0.x;
 * fixtures/copilot-cli/PROVENANCE.txt): `create` and `edit` (and the older `str_replace_editor`,
 * whose `command` says which) write one file, `apply_patch` (GPT models) several; `view`, `grep`
 * and `glob` only read; `bash` and `powershell` run commands, `write_bash` / `write_powershell`
 * type into one running.
 */
export const copilotFileTools: FileTools = {
  writes: ['create', 'edit', 'str_replace_editor', 'apply_patch'],
  reads: ['view', 'grep', 'glob'],
  shell: ['bash', 'powershell', 'write_bash', 'write_powershell']
}
